//! What controllers talk to and through, as client-go and the apiserver provide it: the store
//! (kube-apiserver + etcd: uid, resourceVersion, generation, finalizers, optimistic
//! concurrency, the informers' indexes and watch events), work queues, the event recorder, and
//! what is due on the virtual clock. Nothing here knows a controller.

pub mod agenda;
pub mod clock;
pub mod events;
pub mod eviction;
mod intern;
pub mod nodeinfo;
pub mod queue;
pub mod store;
