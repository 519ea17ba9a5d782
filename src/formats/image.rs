//! Images inside a package, kept without what a camera or an editor wrote beside the
//! pixels: EXIF (the camera, its owner, the place), XMP and IPTC (authors, captions,
//! editing history), comments and text chunks. Only JPEG and PNG are read; a package's
//! other images are removed by the caller (a part that cannot be read is not copied).

use img_parts::Bytes;
use img_parts::jpeg::{Jpeg, markers};
use img_parts::png::Png;

/// PNG chunks that carry the picture (ISO/IEC 15948 and its extensions): every other
/// chunk (text, EXIF, time, private chunks) is dropped.
const PNG_PICTURE_CHUNKS: [&[u8; 4]; 19] = [
    b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"gAMA", b"cHRM", b"sRGB", b"iCCP", b"sBIT",
    b"pHYs", b"bKGD", b"hIST", b"acTL", b"fcTL", b"fdAT", b"cICP", b"mDCv", b"cLLi",
];

/// The image without its metadata, and whether it had any; `None` when it is neither a
/// JPEG nor a PNG this reader can parse.
pub fn stripped(bytes: &[u8]) -> Option<(Vec<u8>, bool)> {
    let data = Bytes::copy_from_slice(bytes);
    if let Ok(mut jpeg) = Jpeg::from_bytes(data.clone()) {
        let before = jpeg.segments().len();
        jpeg.segments_mut()
            .retain(|segment| jpeg_picture_segment(segment.marker(), segment.contents()));
        let had = jpeg.segments().len() != before;
        return Some((jpeg.encoder().bytes().to_vec(), had));
    }
    if let Ok(mut png) = Png::from_bytes(data) {
        let before = png.chunks().len();
        png.chunks_mut()
            .retain(|chunk| PNG_PICTURE_CHUNKS.contains(&&chunk.kind()));
        let had = png.chunks().len() != before;
        return Some((png.encoder().bytes().to_vec(), had));
    }
    None
}

/// Whether a JPEG segment is part of the picture: everything but the application
/// segments and comments, except JFIF (APP0), the colour profile (APP2 `ICC_PROFILE`) and
/// Adobe's colour transform (APP14), which decoders need.
fn jpeg_picture_segment(marker: u8, contents: &[u8]) -> bool {
    match marker {
        markers::APP0 | markers::APP14 => true,
        markers::APP2 => contents.starts_with(b"ICC_PROFILE\0"),
        markers::COM => false,
        m if (markers::APP1..=markers::APP15).contains(&m) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1×1 PNG with a `tEXt` chunk naming its author.
    fn png_with_text() -> Vec<u8> {
        let mut png = Png::from_bytes(Bytes::from_static(&[
            0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
        ]))
        .expect("signature");
        use img_parts::png::PngChunk;
        png.chunks_mut().push(PngChunk::new(
            *b"IHDR",
            Bytes::from_static(&[0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]),
        ));
        png.chunks_mut().push(PngChunk::new(
            *b"tEXt",
            Bytes::from_static(b"Author\0Jane Roe"),
        ));
        png.chunks_mut().push(PngChunk::new(
            *b"IDAT",
            Bytes::from_static(&[0x78, 0x9c, 0x63, 0, 0, 0, 2, 0, 1]),
        ));
        png.chunks_mut().push(PngChunk::new(*b"IEND", Bytes::new()));
        png.encoder().bytes().to_vec()
    }

    #[test]
    fn a_png_loses_its_text_chunks_and_keeps_its_pixels() {
        let original = png_with_text();
        let (clean, had) = stripped(&original).expect("a PNG");
        assert!(had);
        assert!(!clean.windows(4).any(|w| w == b"tEXt"));
        assert!(!clean.windows(8).any(|w| w == b"Jane Roe"));
        assert!(clean.windows(4).any(|w| w == b"IDAT"));
        assert_eq!(stripped(&clean), Some((clean.clone(), false)));
    }

    #[test]
    fn jpeg_application_segments_go_but_the_colour_profile_stays() {
        assert!(!jpeg_picture_segment(markers::APP1, b"Exif\0\0"));
        assert!(!jpeg_picture_segment(markers::APP13, b"Photoshop 3.0"));
        assert!(!jpeg_picture_segment(markers::COM, b"taken by Jane Roe"));
        assert!(!jpeg_picture_segment(markers::APP2, b"MPF\0"));
        assert!(jpeg_picture_segment(markers::APP2, b"ICC_PROFILE\0"));
        assert!(jpeg_picture_segment(markers::DQT, b""));
    }

    #[test]
    fn other_bytes_are_no_image() {
        assert_eq!(stripped(b"GIF89a"), None);
    }
}
