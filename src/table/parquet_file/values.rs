//! A column's stored values decoded a batch at a time and written as the text of a CSV
//! field, as its logical type (or converted type) says.

use std::fmt::Write as _;

use chrono::{DateTime, NaiveTime};
use parquet::basic::{ConvertedType, LogicalType, TimeUnit, Type as PhysicalType};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{
    BoolType, ByteArray, ByteArrayType, DoubleType, FixedLenByteArray, FixedLenByteArrayType,
    FloatType, Int32Type, Int64Type, Int96, Int96Type,
};
use parquet::schema::types::ColumnDescriptor;

/// Days from 1 January 4713 BC (Julian day 0) to 1 January 1970, for INT96 timestamps.
const JULIAN_DAY_OF_UNIX_EPOCH: i64 = 2_440_588;
const SECONDS_PER_DAY: i64 = 86_400;
const NANOS_PER_SECOND: i64 = 1_000_000_000;

/// How a column's stored values become field text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Render {
    Bool,
    Signed,
    Unsigned,
    Float,
    Double,
    /// An unscaled integer with this many digits after the point.
    Decimal(u32),
    Date,
    Time(Unit),
    Timestamp(Unit),
    /// INT96: nanoseconds of the day and a Julian day (legacy Impala and Spark timestamps).
    Int96Timestamp,
    /// UTF-8 text.
    Text,
    /// Unannotated bytes (older writers store strings so): read as text when they are
    /// UTF-8 without control characters other than tab and line breaks.
    Binary,
    Uuid,
    Float16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Millis,
    Micros,
    Nanos,
}

impl Unit {
    fn per_second(self) -> i64 {
        match self {
            Unit::Millis => 1_000,
            Unit::Micros => 1_000_000,
            Unit::Nanos => NANOS_PER_SECOND,
        }
    }

    fn of(unit: &TimeUnit) -> Unit {
        match unit {
            TimeUnit::MILLIS => Unit::Millis,
            TimeUnit::MICROS => Unit::Micros,
            TimeUnit::NANOS => Unit::Nanos,
        }
    }
}

/// How a leaf column is rendered, or why it cannot be: from its logical type, else its
/// converted type (files of older writers), else its physical type.
pub(super) fn render_of(column: &ColumnDescriptor) -> std::result::Result<Render, String> {
    use PhysicalType as P;
    let physical = column.physical_type();
    let unsupported = |what: &str| Err(format!("{what} values are not read"));
    if let Some(logical) = column.logical_type_ref() {
        let render = match (logical, physical) {
            (LogicalType::String | LogicalType::Enum | LogicalType::Json, P::BYTE_ARRAY) => {
                Render::Text
            }
            (LogicalType::Integer(int), P::INT32 | P::INT64) => {
                if int.is_signed {
                    Render::Signed
                } else {
                    Render::Unsigned
                }
            }
            (LogicalType::Decimal(d), _) => Render::Decimal(decimal_scale(d.scale)?),
            (LogicalType::Date, P::INT32) => Render::Date,
            (LogicalType::Time(t), P::INT32 | P::INT64) => Render::Time(Unit::of(&t.unit)),
            (LogicalType::Timestamp(t), P::INT64) => Render::Timestamp(Unit::of(&t.unit)),
            (LogicalType::Uuid, P::FIXED_LEN_BYTE_ARRAY) => Render::Uuid,
            (LogicalType::Float16, P::FIXED_LEN_BYTE_ARRAY) => Render::Float16,
            (LogicalType::Bson, _) => return unsupported("BSON"),
            (LogicalType::Unknown, _) => Render::Text,
            _ => return unsupported(&format!("{logical:?} over {physical}")),
        };
        return Ok(render);
    }
    let render = match (column.converted_type(), physical) {
        (ConvertedType::NONE, P::BOOLEAN) => Render::Bool,
        (ConvertedType::NONE, P::INT32 | P::INT64) => Render::Signed,
        (ConvertedType::NONE, P::INT96) => Render::Int96Timestamp,
        (ConvertedType::NONE, P::FLOAT) => Render::Float,
        (ConvertedType::NONE, P::DOUBLE) => Render::Double,
        (ConvertedType::NONE, P::BYTE_ARRAY | P::FIXED_LEN_BYTE_ARRAY) => Render::Binary,
        (ConvertedType::UTF8 | ConvertedType::ENUM | ConvertedType::JSON, P::BYTE_ARRAY) => {
            Render::Text
        }
        (ConvertedType::INT_8 | ConvertedType::INT_16 | ConvertedType::INT_32, P::INT32)
        | (ConvertedType::INT_64, P::INT64) => Render::Signed,
        (ConvertedType::UINT_8 | ConvertedType::UINT_16 | ConvertedType::UINT_32, P::INT32)
        | (ConvertedType::UINT_64, P::INT64) => Render::Unsigned,
        (ConvertedType::DECIMAL, _) => Render::Decimal(decimal_scale(column.type_scale())?),
        (ConvertedType::DATE, P::INT32) => Render::Date,
        (ConvertedType::TIME_MILLIS, P::INT32) => Render::Time(Unit::Millis),
        (ConvertedType::TIME_MICROS, P::INT64) => Render::Time(Unit::Micros),
        (ConvertedType::TIMESTAMP_MILLIS, P::INT64) => Render::Timestamp(Unit::Millis),
        (ConvertedType::TIMESTAMP_MICROS, P::INT64) => Render::Timestamp(Unit::Micros),
        (converted, _) => return unsupported(&format!("{converted} over {physical}")),
    };
    Ok(render)
}

fn decimal_scale(scale: i32) -> std::result::Result<u32, String> {
    u32::try_from(scale).map_err(|_| format!("a decimal with negative scale {scale}"))
}

/// One column of the row group being read: its decoder and the current batch.
pub(super) struct ColumnBatch {
    pub(super) render: Render,
    /// Definition level of a present value; 0 for a required column (no levels).
    pub(super) max_def: i16,
    pub(super) values: Values,
    pub(super) defs: Vec<i16>,
    /// The next value of `values` to hand on (values skip nulls, levels do not).
    pub(super) next_value: usize,
}

/// A typed column decoder with its batch of decoded values.
pub(super) enum Values {
    Bool(ColumnReaderImpl<BoolType>, Vec<bool>),
    Int32(ColumnReaderImpl<Int32Type>, Vec<i32>),
    Int64(ColumnReaderImpl<Int64Type>, Vec<i64>),
    Int96(ColumnReaderImpl<Int96Type>, Vec<Int96>),
    Float(ColumnReaderImpl<FloatType>, Vec<f32>),
    Double(ColumnReaderImpl<DoubleType>, Vec<f64>),
    Bytes(ColumnReaderImpl<ByteArrayType>, Vec<ByteArray>),
    Fixed(
        ColumnReaderImpl<FixedLenByteArrayType>,
        Vec<FixedLenByteArray>,
    ),
}

impl Values {
    pub(super) fn new(reader: ColumnReader) -> Values {
        match reader {
            ColumnReader::BoolColumnReader(r) => Values::Bool(r, Vec::new()),
            ColumnReader::Int32ColumnReader(r) => Values::Int32(r, Vec::new()),
            ColumnReader::Int64ColumnReader(r) => Values::Int64(r, Vec::new()),
            ColumnReader::Int96ColumnReader(r) => Values::Int96(r, Vec::new()),
            ColumnReader::FloatColumnReader(r) => Values::Float(r, Vec::new()),
            ColumnReader::DoubleColumnReader(r) => Values::Double(r, Vec::new()),
            ColumnReader::ByteArrayColumnReader(r) => Values::Bytes(r, Vec::new()),
            ColumnReader::FixedLenByteArrayColumnReader(r) => Values::Fixed(r, Vec::new()),
        }
    }

    /// Decodes up to `rows` rows; returns how many were read.
    pub(super) fn read(
        &mut self,
        rows: usize,
        defs: Option<&mut Vec<i16>>,
    ) -> parquet::errors::Result<usize> {
        macro_rules! read {
            ($reader:expr, $values:expr) => {{
                $values.clear();
                $reader.read_records(rows, defs, None, $values)?.0
            }};
        }
        Ok(match self {
            Values::Bool(r, v) => read!(r, v),
            Values::Int32(r, v) => read!(r, v),
            Values::Int64(r, v) => read!(r, v),
            Values::Int96(r, v) => read!(r, v),
            Values::Float(r, v) => read!(r, v),
            Values::Double(r, v) => read!(r, v),
            Values::Bytes(r, v) => read!(r, v),
            Values::Fixed(r, v) => read!(r, v),
        })
    }

    /// Writes value `i` of the batch as text into `out` (cleared first).
    pub(super) fn render(
        &self,
        i: usize,
        render: Render,
        out: &mut String,
    ) -> std::result::Result<(), String> {
        out.clear();
        let missing = || "fewer values than definition levels".to_string();
        match self {
            Values::Bool(_, v) => {
                out.push_str(if *v.get(i).ok_or_else(missing)? {
                    "true"
                } else {
                    "false"
                });
                Ok(())
            }
            Values::Int32(_, v) => {
                let value = *v.get(i).ok_or_else(missing)?;
                render_int(i64::from(value), u64::from(value as u32), render, out)
            }
            Values::Int64(_, v) => {
                let value = *v.get(i).ok_or_else(missing)?;
                render_int(value, value as u64, render, out)
            }
            Values::Int96(_, v) => render_int96(v.get(i).ok_or_else(missing)?, out),
            Values::Float(_, v) => {
                let _ = write!(out, "{}", v.get(i).ok_or_else(missing)?);
                Ok(())
            }
            Values::Double(_, v) => {
                let _ = write!(out, "{}", v.get(i).ok_or_else(missing)?);
                Ok(())
            }
            Values::Bytes(_, v) => render_bytes(v.get(i).ok_or_else(missing)?.data(), render, out),
            Values::Fixed(_, v) => render_bytes(v.get(i).ok_or_else(missing)?.data(), render, out),
        }
    }
}

/// An INT32 or INT64 value (`unsigned` is the same bits read as unsigned).
fn render_int(
    signed: i64,
    unsigned: u64,
    render: Render,
    out: &mut String,
) -> std::result::Result<(), String> {
    match render {
        Render::Signed => {
            let _ = write!(out, "{signed}");
        }
        Render::Unsigned => {
            let _ = write!(out, "{unsigned}");
        }
        Render::Decimal(scale) => render_decimal(i128::from(signed), scale, out),
        Render::Date => {
            let date = signed
                .checked_mul(SECONDS_PER_DAY)
                .and_then(|seconds| DateTime::from_timestamp(seconds, 0))
                .ok_or("a date out of range")?;
            let _ = write!(out, "{}", date.format("%Y-%m-%d"));
        }
        Render::Time(unit) => {
            let per = unit.per_second();
            let seconds =
                u32::try_from(signed.div_euclid(per)).map_err(|_| "a time out of range")?;
            let nanos = (signed.rem_euclid(per) * (NANOS_PER_SECOND / per)) as u32;
            let time = NaiveTime::from_num_seconds_from_midnight_opt(seconds, nanos)
                .ok_or("a time out of range")?;
            let _ = write!(out, "{}", time.format("%H:%M:%S%.f"));
        }
        Render::Timestamp(unit) => {
            let per = unit.per_second();
            let nanos = (signed.rem_euclid(per) * (NANOS_PER_SECOND / per)) as u32;
            let time = DateTime::from_timestamp(signed.div_euclid(per), nanos)
                .ok_or("a timestamp out of range")?;
            let _ = write!(out, "{}", time.format("%Y-%m-%d %H:%M:%S%.f"));
        }
        _ => return Err(format!("an integer where {render:?} was expected")),
    }
    Ok(())
}

/// An INT96 timestamp: eight bytes of nanoseconds in the day, four of the Julian day.
fn render_int96(value: &Int96, out: &mut String) -> std::result::Result<(), String> {
    let words = value.data();
    let nanos_of_day = (i64::from(words[1]) << 32) | i64::from(words[0]);
    let days = i64::from(words[2]) - JULIAN_DAY_OF_UNIX_EPOCH;
    let seconds = days
        .checked_mul(SECONDS_PER_DAY)
        .and_then(|s| s.checked_add(nanos_of_day.div_euclid(NANOS_PER_SECOND)));
    let time = seconds
        .and_then(|s| DateTime::from_timestamp(s, nanos_of_day.rem_euclid(NANOS_PER_SECOND) as u32))
        .ok_or("a timestamp out of range")?;
    let _ = write!(out, "{}", time.format("%Y-%m-%d %H:%M:%S%.f"));
    Ok(())
}

/// A BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value.
fn render_bytes(bytes: &[u8], render: Render, out: &mut String) -> std::result::Result<(), String> {
    match render {
        Render::Text => {
            out.push_str(std::str::from_utf8(bytes).map_err(|_| "not valid UTF-8")?);
        }
        Render::Binary => {
            let text = std::str::from_utf8(bytes)
                .ok()
                .filter(|t| {
                    !t.chars()
                        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                })
                .ok_or("binary data, not text")?;
            out.push_str(text);
        }
        Render::Decimal(scale) => {
            if bytes.len() > 16 {
                return Err("a decimal wider than 128 bits".into());
            }
            // Big-endian two's complement, sign-extended to 128 bits.
            let fill = if bytes.first().is_some_and(|b| b & 0x80 != 0) {
                0xff
            } else {
                0
            };
            let mut wide = [fill; 16];
            wide[16 - bytes.len()..].copy_from_slice(bytes);
            render_decimal(i128::from_be_bytes(wide), scale, out);
        }
        Render::Uuid => {
            if bytes.len() != 16 {
                return Err("a UUID not of 16 bytes".into());
            }
            for (i, b) in bytes.iter().enumerate() {
                if matches!(i, 4 | 6 | 8 | 10) {
                    out.push('-');
                }
                let _ = write!(out, "{b:02x}");
            }
        }
        Render::Float16 => {
            let bits: [u8; 2] = bytes
                .try_into()
                .map_err(|_| "a half float not of 2 bytes")?;
            let _ = write!(out, "{}", half_to_f32(u16::from_le_bytes(bits)));
        }
        _ => return Err(format!("bytes where {render:?} was expected")),
    }
    Ok(())
}

/// An IEEE 754 half-precision value widened exactly to single precision.
fn half_to_f32(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let fraction = f32::from(bits & 0x3ff);
    sign * match exponent {
        0 => fraction * 2f32.powi(-24),
        0x1f if fraction == 0.0 => f32::INFINITY,
        0x1f => f32::NAN,
        e => (1.0 + fraction / 1024.0) * 2f32.powi(e - 15),
    }
}

/// `unscaled · 10^-scale` in plain digits: `-12345`, scale 2 → `-123.45`.
fn render_decimal(unscaled: i128, scale: u32, out: &mut String) {
    let digits = unscaled.unsigned_abs().to_string();
    if unscaled < 0 {
        out.push('-');
    }
    let scale = scale as usize;
    if scale == 0 {
        out.push_str(&digits);
    } else if digits.len() > scale {
        let (whole, fraction) = digits.split_at(digits.len() - scale);
        out.push_str(whole);
        out.push('.');
        out.push_str(fraction);
    } else {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', scale - digits.len()));
        out.push_str(&digits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(value: i64, render: Render) -> String {
        let mut out = String::new();
        render_int(value, value as u64, render, &mut out).expect("renders");
        out
    }

    fn bytes(value: &[u8], render: Render) -> std::result::Result<String, String> {
        let mut out = String::new();
        render_bytes(value, render, &mut out).map(|()| out)
    }

    #[test]
    fn integers_and_decimals_in_plain_digits() {
        assert_eq!(int(-42, Render::Signed), "-42");
        let mut out = String::new();
        render_int(-1, u64::from(-1i32 as u32), Render::Unsigned, &mut out).expect("renders");
        assert_eq!(out, "4294967295");
        assert_eq!(int(-12345, Render::Decimal(2)), "-123.45");
        assert_eq!(int(5, Render::Decimal(3)), "0.005");
        assert_eq!(int(-5, Render::Decimal(3)), "-0.005");
        assert_eq!(int(700, Render::Decimal(0)), "700");
        // 2^64 as a 9-byte big-endian two's complement, and -1 as one byte.
        assert_eq!(
            bytes(&[0x01, 0, 0, 0, 0, 0, 0, 0, 0], Render::Decimal(1)).as_deref(),
            Ok("1844674407370955161.6")
        );
        assert_eq!(bytes(&[0xff], Render::Decimal(2)).as_deref(), Ok("-0.01"));
        assert_eq!(
            bytes(&[1; 17], Render::Decimal(0)),
            Err("a decimal wider than 128 bits".to_string())
        );
    }

    #[test]
    fn dates_times_and_timestamps() {
        assert_eq!(int(0, Render::Date), "1970-01-01");
        assert_eq!(int(-1, Render::Date), "1969-12-31");
        assert_eq!(int(19_000, Render::Date), "2022-01-08");
        assert_eq!(int(3_723_000, Render::Time(Unit::Millis)), "01:02:03");
        assert_eq!(
            int(3_723_000_500, Render::Time(Unit::Micros)),
            "01:02:03.000500"
        );
        assert_eq!(
            int(1_600_000_000_123, Render::Timestamp(Unit::Millis)),
            "2020-09-13 12:26:40.123"
        );
        assert_eq!(
            int(-1, Render::Timestamp(Unit::Nanos)),
            "1969-12-31 23:59:59.999999999"
        );
        let mut out = String::new();
        assert_eq!(
            render_int(i64::MAX, 0, Render::Date, &mut out),
            Err("a date out of range".to_string())
        );
        assert_eq!(
            render_int(86_400_000, 0, Render::Time(Unit::Millis), &mut out),
            Err("a time out of range".to_string())
        );
    }

    #[test]
    fn int96_timestamps_from_julian_days() {
        let mut value = Int96::new();
        // Julian day 2440589 is 2 January 1970; one second and 5 ns into it.
        let nanos: u64 = 1_000_000_005;
        value.set_data(nanos as u32, (nanos >> 32) as u32, 2_440_589);
        let mut out = String::new();
        render_int96(&value, &mut out).expect("renders");
        assert_eq!(out, "1970-01-02 00:00:01.000000005");
    }

    #[test]
    fn text_uuids_and_half_floats() {
        assert_eq!(
            bytes("Zürich".as_bytes(), Render::Text).as_deref(),
            Ok("Zürich")
        );
        assert_eq!(
            bytes(&[0xff, 0xfe], Render::Text),
            Err("not valid UTF-8".into())
        );
        assert_eq!(bytes(b"a\tb\n", Render::Binary).as_deref(), Ok("a\tb\n"));
        assert_eq!(
            bytes(&[0, 0, 1], Render::Binary),
            Err("binary data, not text".into())
        );
        assert_eq!(
            bytes(&[0xff], Render::Binary),
            Err("binary data, not text".into())
        );
        let uuid: Vec<u8> = (0..16).collect();
        assert_eq!(
            bytes(&uuid, Render::Uuid).as_deref(),
            Ok("00010203-0405-0607-0809-0a0b0c0d0e0f")
        );
        // 1.5 is 0x3e00; -2 is 0xc000; the smallest subnormal is 0x0001.
        assert_eq!(
            bytes(&0x3e00u16.to_le_bytes(), Render::Float16).as_deref(),
            Ok("1.5")
        );
        assert_eq!(
            bytes(&0xc000u16.to_le_bytes(), Render::Float16).as_deref(),
            Ok("-2")
        );
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(half_to_f32(0x7c00), f32::INFINITY);
    }
}
