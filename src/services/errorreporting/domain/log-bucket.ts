// Spec A4: an event recorded to the log is analysed (grouped) only when customer-managed encryption is off on the
// log bucket and the bucket is in the originating project, or in another project that received the logs by routing.

export interface LogBucketSettings {
  cmekEnabled: boolean;
  /** The project that owns the log bucket. */
  bucketProject: string;
  /** Whether the logs reached that bucket through a log router sink. */
  routed: boolean;
}

export const defaultLogBucket = (projectId: string): LogBucketSettings => ({ cmekEnabled: false, bucketProject: projectId, routed: false });

export function isAnalysable(originProject: string, bucket: LogBucketSettings): boolean {
  if (bucket.cmekEnabled) return false;
  return bucket.bucketProject === originProject || bucket.routed;
}
