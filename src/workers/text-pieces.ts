/**
 * The pieces of one batch's output text, joined once. The array is kept between batches at its
 * largest length, the slots past the used ones holding '' (which the join skips at no cost): a fresh
 * array regrown to two pieces a row for every batch was a tenth of a worker's allocation.
 */
export class TextPieces {
  private readonly list: string[] = [];
  private used = 0;

  push(piece: string): void {
    if (this.used < this.list.length) this.list[this.used] = piece;
    else this.list.push(piece);
    this.used++;
  }

  /** The pieces as one string; the list is emptied (its slots keep no text alive). */
  join(): string {
    const text = this.list.join('');
    this.list.fill('', 0, this.used);
    this.used = 0;
    return text;
  }
}
