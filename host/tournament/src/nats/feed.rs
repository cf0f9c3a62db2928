//! Work published a batch at a time and results read as they come, for a server that keeps
//! queueing (the ladder of `arena serve --nats`) rather than enqueueing one whole plan:
//! [`Queue::publish_work`] puts one batch of plan lines on the work stream, and a
//! [`ResultFeed`], a durable consumer of one digest's results, hands each result over until
//! it is acked. Acked only once recorded, a result outlives a server killed before recording
//! it: the consumer delivers it again to the next one.

use super::identity::Eligible;
use super::{Queue, QueueError, RESULTS_STREAM, nats, work_subject};
use crate::plan::PlanLine;
use crate::store::StoredMatch;
use async_nats::jetstream::consumer::{AckPolicy, Consumer, DeliverPolicy, pull};
use async_nats::jetstream::message::PublishMessage;
use async_nats::jetstream::{AckKind, Message};
use futures_util::StreamExt;
use std::time::Duration;

/// A durable consumer of one digest's results.
pub struct ResultFeed {
    consumer: Consumer<pull::Config>,
}

/// A result handed over by a [`ResultFeed`], to [`Queue::ack_result`] once recorded.
pub struct Delivery {
    /// The result, or why the message is not one.
    pub result: Result<StoredMatch, String>,
    /// Who played it (the `Arena-Worker` header).
    pub worker: String,
    message: Message,
}

impl Delivery {
    /// The worker the result says it is from, when signed ([`super::identity`]).
    pub fn signer(&self) -> Option<&str> {
        self.header(super::identity::NAME_HEADER)
    }

    /// Whether the result is signed with `key` (the signer's key, as the ladder keeps it).
    pub fn signed_with(&self, key: &str) -> bool {
        self.header(super::identity::SIGNATURE_HEADER)
            .is_some_and(|signed| super::identity::verify(key, &self.message.payload, signed))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.message.headers.as_ref().and_then(|headers| headers.get(name)).map(|value| value.as_str())
    }
}

impl Queue {
    /// Publishes one batch of plan lines for the workers under `digest`, as one message with
    /// the id `message_id` (a message with an id already seen in the duplicate window is not
    /// stored again), to be played by the workers `eligible` admits (its headers say which);
    /// whether it was such a duplicate.
    pub fn publish_work(
        &self,
        digest: &str,
        message_id: &str,
        lines: &[PlanLine],
        eligible: &Eligible,
    ) -> Result<bool, QueueError> {
        let text = lines
            .iter()
            .map(serde_json::to_string)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|err| QueueError::Io(err.to_string()))?
            .join("\n");
        self.block_on(async {
            let mut message = PublishMessage::build().payload(text.into()).message_id(message_id);
            if !eligible.exclude.is_empty() {
                message = message.header(super::identity::EXCLUDE_HEADER, eligible.exclude.join(",").as_str());
            }
            if let Some(only) = &eligible.only {
                message = message.header(super::identity::ONLY_HEADER, only.join(",").as_str());
            }
            let ack = self.jetstream.send_publish(work_subject(digest), message).await.map_err(nats("publishing"))?;
            Ok(ack.await.map_err(nats("publishing"))?.duplicate)
        })
    }

    /// The durable consumer `name` of the results of `digest` (created if missing), from the
    /// first result it has not had acked.
    pub fn result_feed(&self, digest: &str, name: &str) -> Result<ResultFeed, QueueError> {
        self.block_on(async {
            let stream = self.jetstream.get_stream(RESULTS_STREAM).await.map_err(nats("opening the results stream"))?;
            let config = pull::Config {
                durable_name: Some(name.to_owned()),
                filter_subject: format!("arena.results.{digest}.>"),
                deliver_policy: DeliverPolicy::All,
                ack_policy: AckPolicy::Explicit,
                ack_wait: Duration::from_secs(60),
                max_deliver: -1,
                ..Default::default()
            };
            let consumer =
                stream.get_or_create_consumer(name, config).await.map_err(nats("creating the results consumer"))?;
            Ok(ResultFeed { consumer })
        })
    }

    /// Up to `max` results, waiting at most `wait` for the first.
    pub fn take_results(&self, feed: &ResultFeed, max: usize, wait: Duration) -> Result<Vec<Delivery>, QueueError> {
        self.block_on(async {
            let mut batch = feed
                .consumer
                .batch()
                .max_messages(max.max(1))
                .expires(wait)
                .messages()
                .await
                .map_err(nats("asking for results"))?;
            let mut deliveries = Vec::new();
            while let Some(message) = batch.next().await {
                let message = message.map_err(nats("receiving results"))?;
                let result = serde_json::from_slice::<StoredMatch>(&message.payload).map_err(|err| err.to_string());
                let worker = message
                    .headers
                    .as_ref()
                    .and_then(|headers| headers.get("Arena-Worker"))
                    .map_or_else(|| "an unnamed worker".to_owned(), |value| value.as_str().to_owned());
                deliveries.push(Delivery { result, worker, message });
            }
            Ok(deliveries)
        })
    }

    /// Acks a delivered result: recorded (or refused for good), never to be delivered again.
    pub fn ack_result(&self, delivery: &Delivery) -> Result<(), QueueError> {
        self.block_on(delivery.message.ack_with(AckKind::Ack)).map_err(nats("acking a result"))
    }
}
