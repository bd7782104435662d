/**
 * The on-page message box for problems with the URL or the level file (instead of console errors). It
 * lists the first {@link MAX_SHOWN} messages and a count of the rest, and never covers more than half of
 * the view (the stylesheet caps its height; a long message scrolls). Every message stays readable in
 * {@link MessageBox.messages} (and `quadtreeDemo.state().messages`).
 */

/** Messages listed in the box; the rest are counted. */
export const MAX_SHOWN = 8;

export class MessageBox {
  readonly messages: string[] = [];
  private readonly list: HTMLUListElement;
  private readonly more: HTMLParagraphElement;

  constructor(private readonly element: HTMLElement) {
    element.replaceChildren();
    const title = document.createElement('strong');
    title.textContent = 'Some settings could not be used:';
    this.list = document.createElement('ul');
    this.more = document.createElement('p');
    this.more.className = 'more';
    this.more.hidden = true;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'close';
    close.textContent = '×';
    close.title = 'Dismiss';
    close.addEventListener('click', () => {
      this.element.hidden = true;
    });
    element.append(close, title, this.list, this.more);
    element.hidden = true;
  }

  /** Show more messages (the box stays until dismissed). */
  add(messages: readonly string[]): void {
    for (const text of messages) {
      this.messages.push(text);
      if (this.list.childElementCount >= MAX_SHOWN) continue;
      const item = document.createElement('li');
      item.textContent = text;
      this.list.append(item);
    }
    const hidden = this.messages.length - this.list.childElementCount;
    this.more.hidden = hidden === 0;
    this.more.textContent = `… and ${hidden} more (all of them: quadtreeDemo.state().messages in the console).`;
    if (messages.length > 0) this.element.hidden = false;
  }
}
