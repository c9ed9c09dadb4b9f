// Answers asked of a slow outside program (gh, git) in the background and kept a while, by
// workstream name, so a dashboard never waits on it: a read gets what is known now and starts a
// new ask when that is older than `freshMs`.

interface Entry<T> {
  value?: T;
  at: number;
  pending?: Promise<void>;
}

export class KeptAnswers<T> {
  /** By workstream name; bounded by the workstreams there are (forget drops one). */
  private cache = new Map<string, Entry<T>>();

  constructor(private readonly freshMs: number) {}

  /** What is known now, and the ask under way. When the answer is old, `ask` is called: it returns
   * the ask, or undefined when it can't be asked now (gh missing, no branch). An ask that fails
   * keeps the old answer; either way the next is `freshMs` later. */
  get(name: string, ask: () => Promise<T | undefined> | undefined): { value?: T; pending?: Promise<void> } {
    let e = this.cache.get(name);
    if (!e) this.cache.set(name, (e = { at: 0 }));
    if (!e.pending && Date.now() - e.at > this.freshMs) {
      const entry = e;
      entry.pending = ask()
        ?.then((v) => {
          entry.value = v;
        })
        .catch(() => {})
        .finally(() => {
          entry.at = Date.now();
          entry.pending = undefined;
        });
    }
    return { value: e.value, pending: e.pending };
  }

  forget(name: string): void {
    this.cache.delete(name);
  }
}
