//! The executor's Arrow Flight service (other executors and clients fetch shuffle files and
//! results from it): Ballista's own, behind a check of what a fetch names. Ballista builds the
//! path of the file to serve from the job id a ticket holds, so an id such as `/etc` or
//! `../../x` would serve a file outside the work folder; here such a fetch is refused before any
//! file is opened. Ballista's job ids are short alphanumeric names.

use std::net::SocketAddr;
use std::pin::Pin;

use arrow_flight::flight_service_server::{FlightService, FlightServiceServer};
use arrow_flight::{
    Action, ActionType, Criteria, Empty, FlightData, FlightDescriptor, FlightInfo,
    HandshakeRequest, HandshakeResponse, PollInfo, PutResult, SchemaResult, Ticket,
};
use ballista_core::error::BallistaError;
use ballista_core::serde::decode_protobuf;
use ballista_core::serde::scheduler::Action as BallistaAction;
use ballista_core::utils::GrpcServerConfig;
use ballista_executor::flight_service::BallistaFlightService;
use ballista_executor::shutdown::Shutdown;
use futures::Stream;
use tonic::{Request, Response, Status, Streaming};

/// The action that fetches shuffle blocks (Ballista's name for it).
const BLOCK_TRANSPORT: &str = "IO_BLOCK_TRANSPORT";

/// Whether a job id names one folder inside the work folder: not empty, not `.` or `..`, without
/// a path separator or NUL.
pub fn is_plain_job_id(job_id: &str) -> bool {
    !job_id.is_empty() && job_id != "." && job_id != ".." && !job_id.contains(['/', '\\', '\0'])
}

/// Refuses a fetch (a ticket or an action's body) whose job id is not plain. What does not
/// decode as a fetch is left to Ballista, which reports it.
fn check_fetch(encoded: &[u8]) -> Result<(), Status> {
    if let Ok(BallistaAction::FetchPartition { job_id, .. }) = decode_protobuf(encoded) {
        if !is_plain_job_id(job_id.as_str()) {
            return Err(Status::invalid_argument(format!(
                "refused: the job id {:?} is not a plain name",
                job_id.as_str()
            )));
        }
    }
    Ok(())
}

/// Ballista's Flight service with fetches checked.
pub struct CheckedFlightService {
    inner: BallistaFlightService,
}

impl CheckedFlightService {
    pub fn new(work_dir: String) -> CheckedFlightService {
        CheckedFlightService {
            inner: BallistaFlightService::new(work_dir),
        }
    }
}

type Inner = BallistaFlightService;
type Boxed<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send + 'static>>;

#[tonic::async_trait]
impl FlightService for CheckedFlightService {
    type HandshakeStream = Boxed<HandshakeResponse>;
    type ListFlightsStream = Boxed<FlightInfo>;
    type DoGetStream = Boxed<FlightData>;
    type DoPutStream = Boxed<PutResult>;
    type DoExchangeStream = Boxed<FlightData>;
    type DoActionStream = Boxed<arrow_flight::Result>;
    type ListActionsStream = Boxed<ActionType>;

    async fn do_get(
        &self,
        request: Request<Ticket>,
    ) -> Result<Response<Self::DoGetStream>, Status> {
        check_fetch(&request.get_ref().ticket)?;
        self.inner.do_get(request).await
    }

    async fn do_action(
        &self,
        request: Request<Action>,
    ) -> Result<Response<Self::DoActionStream>, Status> {
        if request.get_ref().r#type == BLOCK_TRANSPORT {
            check_fetch(&request.get_ref().body)?;
        }
        self.inner.do_action(request).await
    }

    async fn handshake(
        &self,
        request: Request<Streaming<HandshakeRequest>>,
    ) -> Result<Response<Self::HandshakeStream>, Status> {
        <Inner as FlightService>::handshake(&self.inner, request).await
    }

    async fn list_flights(
        &self,
        request: Request<Criteria>,
    ) -> Result<Response<Self::ListFlightsStream>, Status> {
        self.inner.list_flights(request).await
    }

    async fn get_flight_info(
        &self,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<FlightInfo>, Status> {
        self.inner.get_flight_info(request).await
    }

    async fn poll_flight_info(
        &self,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<PollInfo>, Status> {
        self.inner.poll_flight_info(request).await
    }

    async fn get_schema(
        &self,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<SchemaResult>, Status> {
        self.inner.get_schema(request).await
    }

    async fn do_put(
        &self,
        request: Request<Streaming<FlightData>>,
    ) -> Result<Response<Self::DoPutStream>, Status> {
        self.inner.do_put(request).await
    }

    async fn do_exchange(
        &self,
        request: Request<Streaming<FlightData>>,
    ) -> Result<Response<Self::DoExchangeStream>, Status> {
        self.inner.do_exchange(request).await
    }

    async fn list_actions(
        &self,
        request: Request<Empty>,
    ) -> Result<Response<Self::ListActionsStream>, Status> {
        self.inner.list_actions(request).await
    }
}

/// Serves [`CheckedFlightService`] at `address` until `shutdown`, with the message size limits
/// Ballista's own service has (`max_message_bytes` both ways).
pub fn serve(
    work_dir: String,
    address: SocketAddr,
    mut shutdown: Shutdown,
    grpc: GrpcServerConfig,
    max_message_bytes: usize,
) -> tokio::task::JoinHandle<Result<(), BallistaError>> {
    tokio::spawn(async move {
        let service = FlightServiceServer::new(CheckedFlightService::new(work_dir))
            .max_decoding_message_size(max_message_bytes)
            .max_encoding_message_size(max_message_bytes);
        ballista_core::utils::create_grpc_server(&grpc)
            .add_service(service)
            .serve_with_shutdown(address, shutdown.recv())
            .await
            .map_err(BallistaError::TonicError)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_job_ids_pass() {
        for plain in ["aBc1234", "job-7", "x.y"] {
            assert!(is_plain_job_id(plain), "{plain}");
        }
        for not_plain in ["", ".", "..", "/etc", "../x", "a/b", "a\\b", "a\0b"] {
            assert!(!is_plain_job_id(not_plain), "{not_plain:?}");
        }
    }
}
