/**
 * The one place the scene adds DOM event listeners: every `on` is remembered, and `dispose` removes them
 * all, so nothing can be added without being removed.
 */
export class Listeners {
  private readonly removers: (() => void)[] = [];

  /** Add `listener` for `type` on `target`; returns a function that removes it early. */
  on<E extends Event>(
    target: EventTarget,
    type: string,
    listener: (event: E) => void,
    options?: boolean | AddEventListenerOptions,
  ): () => void {
    const handler = listener as EventListener;
    target.addEventListener(type, handler, options);
    const capture = typeof options === 'boolean' ? options : options?.capture === true;
    let removed = false;
    const remove = () => {
      if (removed) return;
      removed = true;
      target.removeEventListener(type, handler, capture);
      const i = this.removers.indexOf(remove);
      if (i >= 0) this.removers.splice(i, 1);
    };
    this.removers.push(remove);
    return remove;
  }

  /** Remove every listener still registered. */
  dispose(): void {
    for (const remove of [...this.removers]) remove();
    this.removers.length = 0;
  }
}
