/** A file served as it is from memory (hashed UI assets, the icon), with its gzip when it pays. */
export interface StaticAsset {
  /** Null: a file that could not be read (answered 500). */
  readonly body: Buffer | null;
  readonly gzip: Buffer | null;
  contentType: string;
  cacheControl: string;
}
