/**
 * A refused upload: a 4xx with a Spanish `detail` (the app's error handler answers it as {detail}), thrown
 * before anything is written. 413 too large, 415 not the expected kind of file, 400 anything else.
 */
export class UploadRefusal extends Error {
  constructor(
    readonly statusCode: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}
