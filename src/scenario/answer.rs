//! What a command set off: the Deployment syncs of the instant a kubectl command ran in, read
//! off the recorded run. The branch panel shows the first of them (the sync the command
//! caused) for as long as the view stays in that instant, so that a command typed to see which
//! rung of `syncDeployment` it lights shows that rung, not the instant's last sync; the others
//! are listed after it, each with what it wrote.

use super::session::Session;
use crate::cluster::trace::TraceStep;

/// A command's step and the followed Deployment's syncs of its instant, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandSyncs {
    /// The command's (action) step.
    pub command: usize,
    /// The followed Deployment's syncs after it in its instant (none for a command that
    /// changed nothing the Deployment controller watches, or read only).
    pub syncs: Vec<usize>,
}

impl CommandSyncs {
    /// The sync the command caused: the first after it.
    pub fn caused(&self) -> Option<usize> {
        self.syncs.first().copied()
    }
}

impl Session {
    /// The command whose instant step `pos` lies in (at the command or after it, before the
    /// clock moves or the next scenario step), with the syncs it set off.
    pub fn command_syncs(&self, pos: usize) -> Option<CommandSyncs> {
        let upto = pos.min(self.trace.len().checked_sub(1)?);
        // The last scenario step at or before `pos`; only a command's counts.
        let k = self.actions.partition_point(|&a| a <= upto);
        let command = *self.actions.get(k.checked_sub(1)?)?;
        self.trace[command].command()?;
        let end = self.instant_end(command);
        if upto > end {
            return None;
        }
        let syncs = (command + 1..=end)
            .filter(|&i| self.is_focus_sync(i))
            .collect();
        Some(CommandSyncs { command, syncs })
    }

    /// The Deployment sync the branch panel shows at step `pos`: the sync at `pos` when it is
    /// one; at the end of a command's instant (where the page moves the view after a command)
    /// and at its other steps after the command's sync, that sync; else the last at or before
    /// `pos`.
    pub fn shown_sync(&self, pos: usize) -> Option<usize> {
        if let Some(c) = self.command_syncs(pos)
            && let Some(caused) = c.caused()
            && caused <= pos
            && (!self.is_focus_sync(pos) || pos == self.instant_end(c.command))
        {
            return Some(caused);
        }
        (0..=pos.min(self.trace.len().checked_sub(1)?))
            .rev()
            .find(|&i| self.is_focus_sync(i))
    }
}

/// What a Deployment sync wrote, in a few words: the ReplicaSets it created, updated or
/// deleted, the Deployment it rewrote, or its status alone.
pub fn wrote(step: &TraceStep) -> String {
    let writes = step.writes();
    let mut said: Vec<String> = Vec::new();
    for w in writes.iter().filter(|w| w.refused.is_none()) {
        let what = match (w.verb, w.resource) {
            ("create", ("replicasets", "")) => format!("created {}", w.name),
            ("update", ("replicasets", "")) => format!("updated {}", w.name),
            ("delete", ("replicasets", "")) => format!("deleted {}", w.name),
            ("update", ("deployments", "")) => format!("rewrote {}", w.name),
            _ => continue,
        };
        if !said.contains(&what) {
            said.push(what);
        }
    }
    if !said.is_empty() {
        return said.join(", ");
    }
    let status = writes
        .iter()
        .any(|w| w.refused.is_none() && w.resource.1 == "status");
    if status {
        "its status only".into()
    } else {
        "nothing to write".into()
    }
}

#[cfg(test)]
mod tests {
    use super::wrote;
    use crate::controller::deployment::Branch;
    use crate::scenario::Scenario;
    use crate::scenario::gallery::DEFAULT;
    use crate::scenario::session::{Outcome, Session};

    /// A command typed at the end of the default example, and the branch the panel shows at
    /// each step of its instant: the rung the command fired, then the instant's later syncs.
    #[test]
    fn a_typed_command_shows_the_sync_it_caused_not_the_instant_s_last() {
        for (cmd, rung) in [
            ("kubectl scale deployment/web --replicas=17", Branch::Scale),
            (
                "kubectl annotate deployment/web deprecated.deployment.rollback.to=0",
                Branch::Rollback,
            ),
            (
                "kubectl set image deployment/web nginx=nginx:1.27",
                Branch::Rollout,
            ),
        ] {
            let mut s = Session::new(Scenario::parse(DEFAULT).unwrap()).unwrap();
            let last = s.len() - 1;
            let Ok(Outcome::Applied { step, .. }) = s.command(last, cmd) else {
                panic!("{cmd} applies");
            };
            let end = s.instant_end(step);
            let c = s.command_syncs(end).expect("the command's instant");
            assert_eq!(c.command, step, "{cmd}");
            assert!(c.syncs.len() >= 2, "{cmd}: several syncs in its instant");
            let caused = c.caused().unwrap();
            assert_eq!(s.trace[caused].branch(), Some(rung), "{cmd}");
            assert_eq!(
                s.trace[*c.syncs.last().unwrap()].branch(),
                Some(Branch::Rollout),
                "{cmd}: the instant ends in a rollout sync"
            );
            // At the end of the instant (where the view lands), and at every step from the
            // command's sync on that is no sync of its own, the panel shows the command's
            // sync; a later sync stepped onto shows itself; at the command itself the panel
            // shows the sync before it.
            assert_eq!(s.shown_sync(end), Some(caused), "{cmd}");
            for i in caused..end {
                let own = s.is_focus_sync(i).then_some(i);
                assert_eq!(s.shown_sync(i), own.or(Some(caused)), "{cmd} at step {i}");
            }
            assert!(
                c.syncs[1..].iter().any(|&i| i < end),
                "{cmd}: a later sync to step onto"
            );
            let before = s.shown_sync(step).unwrap();
            assert!(before < step, "{cmd}");
            assert_eq!(s.command_syncs(step), Some(c.clone()));
            // The step before the command is in no command's instant of its own.
            assert_ne!(s.command_syncs(step - 1).map(|c| c.command), Some(step));
        }
    }

    /// The default example's own scenario commands count as typed ones do, and a step past
    /// the instant goes back to the last sync.
    #[test]
    fn a_scenario_command_shows_its_sync_until_the_clock_moves() {
        let s = Session::new(Scenario::parse(DEFAULT).unwrap()).unwrap();
        let step = (0..s.len())
            .find(|&i| {
                s.trace[i]
                    .command()
                    .is_some_and(|c| c.starts_with("kubectl set image"))
            })
            .unwrap();
        let c = s.command_syncs(step).unwrap();
        let caused = c.caused().unwrap();
        assert_eq!(s.trace[caused].branch(), Some(Branch::Rollout));
        assert_eq!(
            wrote(&s.trace[caused])
                .split(", ")
                .next()
                .map(|w| w.starts_with("created web-")),
            Some(true)
        );
        let after = s.instant_end(step) + 1;
        assert!(s.trace[after].t > s.trace[step].t);
        assert_eq!(s.command_syncs(after), None);
        let last = (0..=after).rev().find(|&i| s.is_focus_sync(i)).unwrap();
        assert_eq!(s.shown_sync(after), Some(last));
    }
}
