//! `kubectl scale` (k8s.io/kubectl/pkg/cmd/scale).

use super::args::Args;
use super::command::Command;
use super::resource::Resource;
use super::{KubectlError, Outcome, api_err, get_deployment, not_found, update_deployment};
use crate::api::*;
use crate::cluster::Cluster;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    scale(c, &cmd.args)
}

fn scale(c: &mut Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["replicas", "current-replicas"])?;
    a.only(&["replicas", "current-replicas"])?;
    let (res, name, _) = a.target(0, "scale")?;
    let Some(n) = a.int("replicas")? else {
        return Err("error: required flag(s) \"replicas\" not set".into());
    };
    if n < 0 {
        return Err("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0".into());
    }
    // The size precondition (-1, the default: none), checked against the stored spec.
    let current = a.int("current-replicas")?.unwrap_or(-1);
    if current < -1 {
        return Err(
            "error: The --current-replicas must specify an integer of -1 or greater".into(),
        );
    }
    let check = |was: Option<i32>| -> Result<(), KubectlError> {
        let was = was.unwrap_or(1);
        if current == -1 || was == current {
            return Ok(());
        }
        Err(format!("error: Expected replicas to be {current}, was {was}").into())
    };
    match res {
        Resource::Deployment => {
            let mut d = get_deployment(c, &a, &name)?;
            check(d.spec.replicas)?;
            d.spec.replicas = Some(n);
            update_deployment(c, d)?;
        }
        Resource::ReplicaSet => {
            let mut rs = c
                .store
                .replicaset(&a.key(&name))
                .cloned()
                .ok_or_else(|| not_found(Kind::ReplicaSet, &name))?;
            check(rs.spec.replicas)?;
            rs.spec.replicas = Some(n);
            c.store.api().update(rs).map_err(api_err)?;
        }
        Resource::Pod => {
            return Err(
                "error: cannot scale pods: only deployments and replicasets have replicas".into(),
            );
        }
    }
    Ok(format!("{}/{name} scaled", res.prefix()))
}
