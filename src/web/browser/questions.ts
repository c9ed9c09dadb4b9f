// The phone page's questions (`ws ask`): each waiting question, as text, with its choices as
// buttons or, without choices, a line to type and Send. The state poll redraws every 2 s, so a
// question's item is kept while it waits (what is typed in its box survives) and only added or
// removed as questions come and go.

export interface QuestionRow {
  id: number;
  pane?: number;
  workspace?: string;
  tab_name?: string;
  question: string;
  choices: string[];
}

type Post = (path: string, body: unknown) => Promise<unknown>;

/** How long an answer given on the page stays shown after the server stops listing what it answered. */
export const ANSWERED_SHOWN_MS = 15_000;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function item(q: QuestionRow, post: Post): HTMLElement {
  const box = el("div", undefined, "question");
  box.dataset.question = String(q.id);
  const where = q.pane !== undefined ? `pane ${q.pane} in ${q.workspace ?? "?"}/${q.tab_name ?? "?"}` : "a script";
  box.append(el("div", `${where} asks:`, "who"), el("pre", q.question, "text"));
  const send = async (answer: string) => {
    box.classList.add("answering");
    try {
      await post("api/question", { question: q.id, answer });
      box.dataset.answeredAt = String(Date.now());
      box.replaceChildren(el("div", `Answered: ${answer}`, "answered"));
    } catch (e) {
      box.append(el("div", `Not answered: ${(e as Error).message}`, "error"));
    }
  };
  if (q.choices.length) {
    for (const c of q.choices) {
      const b = el("button", c, "choice");
      b.onclick = () => send(c);
      box.append(b);
    }
  } else {
    const form = el("form", undefined, "answer");
    const line = Object.assign(el("input"), { type: "text", name: "answer", autocomplete: "off" });
    form.append(line, el("button", "Send"));
    form.onsubmit = (e) => {
      e.preventDefault();
      send(line.value);
    };
    box.append(form);
  }
  return box;
}

/** A section drawing function for phone.ts's SECTIONS, given how to POST. */
export function questionsSection(post: Post): (root: HTMLElement, s: { questions: QuestionRow[] }) => void {
  return (root, s) => {
    let title = root.querySelector("h2");
    if (!title) root.append((title = el("h2")));
    title.textContent = `Questions (${s.questions.length})`;
    const waiting = new Set(s.questions.map((q) => String(q.id)));
    // A question answered here stays shown as answered for a while after it stops waiting.
    const shownSince = Date.now() - ANSWERED_SHOWN_MS;
    for (const e of root.querySelectorAll<HTMLElement>(".question")) if (!waiting.has(e.dataset.question!) && !(Number(e.dataset.answeredAt) > shownSince)) e.remove();
    for (const q of s.questions) if (!root.querySelector(`.question[data-question="${q.id}"]`)) root.append(item(q, post));
    root.querySelector(".empty")?.remove();
    if (!s.questions.length) root.append(el("p", "No questions wait.", "empty"));
  };
}
