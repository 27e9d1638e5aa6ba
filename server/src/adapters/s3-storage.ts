import { randomUUID } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config-scale-out.js';
import type { Storage } from './storage.js';

/**
 * Originals and results in an S3-compatible bucket (AWS S3, MinIO, ...), under the same keys as local storage.
 *
 * Files are proxied: the API reads the object after the ownership check and sends the bytes itself, exactly as with
 * local storage. So the bucket stays private and never has to be reachable from browsers (MinIO can sit on an
 * internal network), and one route keeps the ownership check, the download name, the caching headers and
 * `nosniff`. Results are a few MB at most, so the extra hop costs little; presigned redirects would save the API
 * that bandwidth but put the bucket's address in every page.
 *
 * Checksums: since early 2025 the AWS SDK adds CRC32 checksums to uploads (streamed ones as `aws-chunked` bodies)
 * and validates them on downloads by default; several S3-compatible servers reject or mangle those. We ask for
 * them only where the S3 API requires one.
 */
export class S3Storage implements Storage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    if (!!config.accessKeyId !== !!config.secretAccessKey) {
      throw new Error('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use the default AWS chain)');
    }
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    );
  }

  async get(key: string): Promise<Buffer> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!out.Body) throw new Error(`S3 returned no body for ${key}`);
    return Buffer.from(await out.Body.transformToByteArray());
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      // S3 itself answers 204 for a missing key; some compatible servers answer 404.
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return;
      throw err;
    }
  }

  /** Writes and deletes a tiny object: a bucket that can be read but not written is not healthy. (A PUT is
   * atomic in S3, so a failed write never leaves part of an object behind.) */
  async ping(): Promise<boolean> {
    const key = `.health/${randomUUID()}`;
    try {
      await this.put(key, Buffer.from('ok'), 'text/plain');
      await this.delete(key);
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.client.destroy();
  }
}
