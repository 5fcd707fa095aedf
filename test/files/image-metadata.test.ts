// imageMediaMetadata: the width and height of an image file's content, kept with the file, following its content.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { imageDimensions } from '../../src/services/files/domain/image-metadata.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { driveClient, filesSuite } from './helpers.ts';

/** The smallest headers that name an image's size: PNG 300 x 150, GIF 320 x 240, JPEG 200 x 100. */
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from([0, 0, 1, 44, 0, 0, 0, 150]), Buffer.from('0806000000', 'hex')]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0x40, 0x01, 0xf0, 0x00]), Buffer.alloc(8)]);
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0001108006400c803012200021101031101ffd9', 'hex');

describe('imageDimensions', () => {
  it('reads the width and height of a raster image from its header', () => {
    assert.deepEqual(imageDimensions(PNG, 'image/png'), { width: 300, height: 150 });
    assert.deepEqual(imageDimensions(GIF, 'image/gif'), { width: 320, height: 240 });
    assert.deepEqual(imageDimensions(JPEG, 'image/jpeg'), { width: 200, height: 100 });
  });

  it('has none for another type, a vector image, or content that is not the image it claims to be', () => {
    assert.equal(imageDimensions(PNG, 'application/octet-stream'), undefined);
    assert.equal(imageDimensions(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'image/svg+xml'), undefined);
    assert.equal(imageDimensions(Buffer.from('not an image'), 'image/png'), undefined);
    assert.equal(imageDimensions(Buffer.alloc(0), 'image/jpeg'), undefined);
    assert.equal(imageDimensions(PNG.subarray(0, 20), 'image/png'), undefined);
  });
});

for (const database of DATABASES) {
  describe(`files imageMediaMetadata (${database})`, () => {
    const s = filesSuite(database);
    const upload = (title: string, mimeType: string, body: Buffer) =>
      driveClient(s.t).files.insert({ requestBody: { title }, media: { mimeType, body: Readable.from([body]) } }, { rootUrl: `${s.t.url('files')}/` });

    it('gives an uploaded image its width and height, and a copy keeps them', async () => {
      const drive = driveClient(s.t);
      const png = await upload('photo.png', 'image/png', PNG);
      assert.deepEqual(png.data.imageMediaMetadata, { width: 300, height: 150 });
      const got = await drive.files.get({ fileId: png.data.id!, fields: 'imageMediaMetadata(width,height),mimeType' });
      assert.deepEqual(got.data, { imageMediaMetadata: { width: 300, height: 150 }, mimeType: 'image/png' });
      const copy = await drive.files.copy({ fileId: png.data.id!, requestBody: { title: 'copy.png' } });
      assert.deepEqual(copy.data.imageMediaMetadata, { width: 300, height: 150 });
      const jpeg = await upload('photo.jpg', 'image/jpeg', JPEG);
      assert.deepEqual(jpeg.data.imageMediaMetadata, { width: 200, height: 100 });
    });

    it('follows the content: new image content changes them, other content drops them; none for other files', async () => {
      const drive = driveClient(s.t);
      const file = await upload('changing', 'image/png', PNG);
      const media = (mimeType: string, body: Buffer) => ({ media: { mimeType, body: Readable.from([body]) } });
      const asGif = await drive.files.update({ fileId: file.data.id!, ...media('image/gif', GIF) }, { rootUrl: `${s.t.url('files')}/` });
      assert.deepEqual(asGif.data.imageMediaMetadata, { width: 320, height: 240 });
      const asText = await drive.files.update({ fileId: file.data.id!, ...media('text/plain', Buffer.from('no longer an image')) }, { rootUrl: `${s.t.url('files')}/` });
      assert.equal(asText.data.imageMediaMetadata, undefined);
      const damaged = await upload('damaged.png', 'image/png', Buffer.from('not a png'));
      assert.equal(damaged.data.imageMediaMetadata, undefined);
      const folder = await drive.files.insert({ requestBody: { title: 'f', mimeType: 'application/vnd.google-apps.folder' } });
      assert.equal(folder.data.imageMediaMetadata, undefined);
    });
  });
}
