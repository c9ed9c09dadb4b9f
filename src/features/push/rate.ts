// At most `perMinute` notifications in any 60 s, to one destination: an agent that blocks and
// unblocks in a loop, or a flood of questions, can't make a phone buzz without end.
export class RateLimit {
  private sent: number[] = [];

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether one more may go now (and count it if so). */
  take(): boolean {
    const t = this.now();
    while (this.sent.length && this.sent[0]! <= t - 60_000) this.sent.shift();
    if (this.sent.length >= this.perMinute) return false;
    this.sent.push(t);
    return true;
  }
}
