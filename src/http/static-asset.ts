/** A file served as it is from memory (hashed UI assets, the icon), with its gzip when it pays. */
export interface StaticAsset {
  body: Buffer;
  gzip: Buffer | null;
  contentType: string;
  cacheControl: string;
}
