//! The services' codec: prost's, with a budget checked before a message is
//! decoded. A protobuf message decodes to many times its size when it holds
//! many small records (2.5 million empty games in 47 MiB took a coordinator
//! to 2.8 GB), so a work submission's games and moves are counted on the
//! wire first, a pass that allocates nothing, and a submission over the
//! budget is refused before any of it is decoded.

use crate::v1;
use prost::Message;
use std::marker::PhantomData;
use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic_prost::{ProstDecoder, ProstEncoder};

/// Largest message either side accepts (a unit's games, a campaign and its
/// files).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// The most pairs a work unit has.
pub const MAX_UNIT_PAIRS: u32 = 500;
/// The most games a submission may carry: a unit's.
pub const MAX_SUBMITTED_GAMES: u64 = 2 * MAX_UNIT_PAIRS as u64;
/// The most moves a submission may carry, all its games together (a
/// thousand plies a game, where real games have a few hundred): decoded,
/// well under 100 MB.
pub const MAX_SUBMITTED_MOVES: u64 = 1_000_000;

/// What a message may hold before it is decoded.
pub trait DecodeBudget {
    /// Checks the encoded message `bytes`; an error refuses it undecoded.
    /// Malformed bytes pass, for the decoder to name what is wrong.
    ///
    /// # Errors
    /// `RESOURCE_EXHAUSTED` naming the field over its budget.
    fn check_budget(_bytes: &[u8]) -> Result<(), Status> {
        Ok(())
    }
}

macro_rules! unbounded {
    ($($message:ident),* $(,)?) => {
        $(impl DecodeBudget for v1::$message {})*
    };
}

// Messages of a bounded size: their strings and lists are small or checked
// by the service that takes them.
unbounded!(
    RegisterRequest,
    RegisterResponse,
    WorkRequest,
    WorkResponse,
    RenewLeaseRequest,
    RenewLeaseResponse,
    SubmitResultsResponse,
    ReleaseWorkRequest,
    ReleaseWorkResponse,
    CreateCampaignRequest,
    ListCampaignsRequest,
    ListCampaignsResponse,
    CampaignRequest,
    Campaign,
    ExcludeWorkerRequest,
    ArtifactChunk,
    ArtifactStored,
    FetchArtifactRequest,
);

/// `SubmitResultsRequest.games`.
const SUBMISSION_GAMES: u32 = 5;
/// `GameRecord.moves`.
const GAME_MOVES: u32 = 16;

impl DecodeBudget for v1::SubmitResultsRequest {
    fn check_budget(bytes: &[u8]) -> Result<(), Status> {
        let (mut games, mut moves) = (0u64, 0u64);
        for (number, value) in WireFields(bytes) {
            let (SUBMISSION_GAMES, WireValue::Delimited(game)) = (number, value) else {
                continue;
            };
            games += 1;
            if games > MAX_SUBMITTED_GAMES {
                return Err(Status::resource_exhausted(format!(
                    "SubmitResultsRequest.games: more than {MAX_SUBMITTED_GAMES} games; a unit has at most {MAX_UNIT_PAIRS} pairs"
                )));
            }
            moves += WireFields(game).filter(|(n, _)| *n == GAME_MOVES).count() as u64;
            if moves > MAX_SUBMITTED_MOVES {
                return Err(Status::resource_exhausted(format!(
                    "SubmitResultsRequest.games: more than {MAX_SUBMITTED_MOVES} moves in all"
                )));
            }
        }
        Ok(())
    }
}

/// A field's value as the wire has it.
enum WireValue<'a> {
    /// Varint or fixed-width: nothing inside.
    Scalar,
    /// Length-delimited: a message, string, bytes or packed list.
    Delimited(&'a [u8]),
}

/// The top-level fields of an encoded message, in order; ends at the end or
/// at the first malformed byte.
struct WireFields<'a>(&'a [u8]);

impl<'a> Iterator for WireFields<'a> {
    type Item = (u32, WireValue<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let key = self.varint()?;
        let number = u32::try_from(key >> 3).ok()?;
        let value = match key & 7 {
            0 => {
                self.varint()?;
                WireValue::Scalar
            }
            1 => {
                self.skip(8)?;
                WireValue::Scalar
            }
            2 => {
                let len = usize::try_from(self.varint()?).ok()?;
                WireValue::Delimited(self.skip(len)?)
            }
            5 => {
                self.skip(4)?;
                WireValue::Scalar
            }
            // Groups (3, 4) are not in proto3: malformed here.
            _ => return None,
        };
        Some((number, value))
    }
}

impl<'a> WireFields<'a> {
    fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for (i, byte) in self.0.iter().enumerate().take(10) {
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                self.0 = &self.0[i + 1..];
                return Some(value);
            }
        }
        None
    }

    fn skip(&mut self, len: usize) -> Option<&'a [u8]> {
        let (taken, rest) = self.0.split_at_checked(len)?;
        self.0 = rest;
        Some(taken)
    }
}

/// Prost's codec, with [`DecodeBudget`] checked before decoding.
#[derive(Debug)]
pub struct BudgetCodec<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for BudgetCodec<T, U> {
    fn default() -> Self {
        BudgetCodec(PhantomData)
    }
}

impl<T, U> Codec for BudgetCodec<T, U>
where
    T: Message + Send + 'static,
    U: Message + Default + DecodeBudget + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = BudgetEncoder<T>;
    type Decoder = BudgetDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        BudgetEncoder(ProstEncoder::default())
    }

    fn decoder(&mut self) -> Self::Decoder {
        BudgetDecoder(ProstDecoder::default())
    }
}

/// Prost's encoder.
#[derive(Debug)]
pub struct BudgetEncoder<T>(ProstEncoder<T>);

impl<T: Message> Encoder for BudgetEncoder<T> {
    type Item = T;
    type Error = Status;

    fn encode(&mut self, item: T, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        self.0.encode(item, buf)
    }

    fn buffer_settings(&self) -> BufferSettings {
        self.0.buffer_settings()
    }
}

/// Prost's decoder, after the budget.
#[derive(Debug)]
pub struct BudgetDecoder<U>(ProstDecoder<U>);

impl<U: Message + Default + DecodeBudget> Decoder for BudgetDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        // A message arrives whole in one buffer: its chunk is all of it.
        U::check_budget(prost::bytes::Buf::chunk(buf))?;
        self.0.decode(buf)
    }

    fn buffer_settings(&self) -> BufferSettings {
        self.0.buffer_settings()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn submission(games: usize, moves: usize) -> Vec<u8> {
        let game = v1::GameRecord {
            moves: vec![v1::MoveRecord::default(); moves],
            opening_moves: vec!["e2e4".into(); 3],
            white_params: vec![1, 2, 3],
            final_fen: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
            ..v1::GameRecord::default()
        };
        v1::SubmitResultsRequest {
            worker_id: "w-1".into(),
            games: vec![game; games],
            ..v1::SubmitResultsRequest::default()
        }
        .encode_to_vec()
    }

    #[test]
    fn the_wire_scan_finds_the_games_and_moves_prost_encodes() {
        let bytes = submission(3, 7);
        let games: Vec<usize> = WireFields(&bytes)
            .filter_map(|(n, v)| match (n, v) {
                (SUBMISSION_GAMES, WireValue::Delimited(g)) => {
                    Some(WireFields(g).filter(|(n, _)| *n == GAME_MOVES).count())
                }
                _ => None,
            })
            .collect();
        assert_eq!(games, [7, 7, 7]);
    }

    #[test]
    fn a_submission_over_its_budget_is_refused_before_it_is_decoded() {
        assert!(v1::SubmitResultsRequest::check_budget(&submission(1000, 10)).is_ok());
        let too_many = v1::SubmitResultsRequest::check_budget(&submission(1001, 0)).unwrap_err();
        assert_eq!(too_many.code(), tonic::Code::ResourceExhausted);
        assert!(
            too_many.message().contains("more than 1000 games"),
            "{}",
            too_many.message()
        );
        let long = v1::SubmitResultsRequest::check_budget(&submission(2, 500_001)).unwrap_err();
        assert!(
            long.message().contains("moves in all"),
            "{}",
            long.message()
        );
    }

    #[test]
    fn malformed_bytes_pass_the_scan_for_the_decoder_to_name() {
        for bytes in [&[0xff_u8; 12][..], &[0x2a, 0x05, 0x01], &[0x0b], &[]] {
            assert!(v1::SubmitResultsRequest::check_budget(bytes).is_ok());
            assert_eq!(WireFields(bytes).count(), 0);
        }
    }
}
