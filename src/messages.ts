/** The on-page message box for problems with the URL or the level file (instead of console errors). */
export class MessageBox {
  readonly messages: string[] = [];
  private readonly list: HTMLUListElement;

  constructor(private readonly element: HTMLElement) {
    element.replaceChildren();
    const title = document.createElement('strong');
    title.textContent = 'Some settings could not be used:';
    this.list = document.createElement('ul');
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'close';
    close.textContent = '×';
    close.title = 'Dismiss';
    close.addEventListener('click', () => {
      this.element.hidden = true;
    });
    element.append(close, title, this.list);
    element.hidden = true;
  }

  /** Show more messages (the box stays until dismissed). */
  add(messages: readonly string[]): void {
    for (const text of messages) {
      this.messages.push(text);
      const item = document.createElement('li');
      item.textContent = text;
      this.list.append(item);
    }
    if (messages.length > 0) this.element.hidden = false;
  }
}
