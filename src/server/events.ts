// One bus for every change to the model. The UI, persistence and event subscribers all read it,
// so nothing has to know who else is listening.

export interface ModelEvent {
  type: string;
  [field: string]: unknown;
}

export type Listener = (e: ModelEvent) => void;

export class EventBus {
  private listeners = new Set<Listener>();

  on(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  emit(e: ModelEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        // One broken listener must not stop the others, nor the change that raised the event.
        console.error(`event listener failed on ${e.type}:`, err);
      }
    }
  }
}
