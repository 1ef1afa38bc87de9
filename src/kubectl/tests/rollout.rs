//! `kubectl rollout`, checked: `undo`, `status`, `restart` and `history` as kubectl runs them.

use super::*;

#[test]
fn rollout_undo_rolls_back_on_the_client_as_kubectl_does() {
    let mut c = cluster();
    assert_eq!(
        run(&mut c, "kubectl rollout undo deployment/web"),
        Err("error: no rollout history found for deployment \"web\"".into())
    );
    run(
        &mut c,
        "kubectl annotate deployment/web kubernetes.io/change-cause=first",
    )
    .unwrap();
    c.drain().unwrap();
    run(&mut c, "kubectl set image deployment/web app=app:2").unwrap();
    run(
        &mut c,
        "kubectl annotate deployment/web kubernetes.io/change-cause=second --overwrite",
    )
    .unwrap();
    c.drain().unwrap();
    assert_eq!(
        run(
            &mut c,
            "kubectl rollout undo deployment/web --to-revision=5"
        ),
        Err("error: unable to find specified revision 5 in history".into())
    );
    assert_eq!(
        run(
            &mut c,
            "kubectl rollout undo deployment/web --to-revision=2"
        ),
        Ok(
            "deployment.apps/web skipped rollback (current template already matches revision 2)"
                .into()
        )
    );
    run(&mut c, "kubectl rollout pause deployment/web").unwrap();
    assert_eq!(
        run(&mut c, "kubectl rollout undo deployment/web"),
        Err("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into())
    );
    run(&mut c, "kubectl rollout resume deployment/web").unwrap();
    assert_eq!(
        run(&mut c, "kubectl rollout undo deployment/web"),
        Ok("deployment.apps/web rolled back".into())
    );
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(d.spec.template.spec.containers[0].image, "app:1");
    assert!(
        !d.spec
            .template
            .metadata
            .labels
            .contains_key("pod-template-hash")
    );
    assert_eq!(
        d.metadata
            .annotations
            .get("kubernetes.io/change-cause")
            .map(String::as_str),
        Some("first"),
        "revision 1's change-cause comes back with its template"
    );
    assert!(
        !d.metadata
            .annotations
            .contains_key("deprecated.deployment.rollback.to")
    );
}

#[test]
fn rollout_status_reads_its_flags_as_kubectl_does() {
    let waiting = "Waiting for deployment \"web\" rollout to finish: 0 of 2 updated replicas are available...";
    let cases: &[(&str, Result<&str, &str>, bool)] = &[
        ("rollout status deployment/web", Ok(waiting), true),
        ("rollout status deploy web -w", Ok(waiting), true),
        (
            "rollout status deployment/web --watch=false",
            Ok(waiting),
            false,
        ),
        ("rollout status deployment/web -w=0", Ok(waiting), false),
        (
            "rollout status deployment/web --timeout=1m30s",
            Ok(waiting),
            true,
        ),
        (
            "rollout status deployment/web --timeout 0",
            Ok(waiting),
            true,
        ),
        (
            "rollout status deployment/web --revision=1",
            Ok(waiting),
            true,
        ),
        (
            "rollout status deployment/web --watch=maybe",
            Err(
                "error: invalid argument \"maybe\" for \"-w, --watch\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax",
            ),
            false,
        ),
        (
            "rollout status deployment/web --timeout=30",
            Err(
                "error: invalid argument \"30\" for \"--timeout\" flag: time: missing unit in duration \"30\"",
            ),
            false,
        ),
        (
            "rollout status deployment/web --timeout=1d",
            Err(
                "error: invalid argument \"1d\" for \"--timeout\" flag: time: unknown unit \"d\" in duration \"1d\"",
            ),
            false,
        ),
        (
            "rollout status deployment/web --revision=-1",
            Err("error: revision must be a positive integer: -1"),
            false,
        ),
        (
            "rollout status deployment/web --revision=2",
            Err("error: desired revision (2) is different from the running revision (1)"),
            false,
        ),
    ];
    for (cmd, want, watching) in cases {
        let mut c = cluster();
        let got = run(&mut c, cmd);
        assert_eq!(got.as_deref().map_err(String::as_str), *want, "{cmd}");
        assert_eq!(c.clients_running(), *watching, "{cmd}");
    }
    assert_eq!(
        crate::kubectl::duration::go_duration_ms("1.5h"),
        Ok(Some(5_400_000))
    );
    assert_eq!(
        crate::kubectl::duration::go_duration_ms("300ms"),
        Ok(Some(300))
    );
    assert_eq!(crate::kubectl::duration::go_duration_ms("0"), Ok(None));
    assert!(crate::kubectl::duration::go_duration_ms("").is_err());
}

#[test]
fn rollout_restart_stamps_the_template_and_k_is_kubectl() {
    let mut c = cluster();
    c.advance(30_500).unwrap();
    assert_eq!(
        run(&mut c, "k rollout restart deployment/web"),
        Ok("deployment.apps/web restarted".into())
    );
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(
        d.spec
            .template
            .metadata
            .annotations
            .get("kubectl.kubernetes.io/restartedAt")
            .map(String::as_str),
        Some("2026-01-01T00:00:30Z")
    );
    run(&mut c, "k rollout pause deployment/web").unwrap();
    assert_eq!(
        run(&mut c, "kubectl rollout restart deployment/web"),
        Err("error: deployments.apps \"web\" can't restart paused deployment (run rollout resume first)".into())
    );
}

/// `rollout history` of several Deployments frames each as kubectl's
/// `TestMultipleResourceRolloutHistory` asserts: the name line, the viewer's text, a blank
/// line, in argument order.
#[test]
fn rollout_history_of_two_deployments_as_test_multiple_resource_rollout_history() {
    let mut c = cluster();
    run(&mut c, "kubectl create deployment api --image=api:1").unwrap();
    c.drain().unwrap();
    let table = "REVISION  CHANGE-CAUSE\n1         <none>";
    assert_eq!(
        run(
            &mut c,
            "kubectl rollout history deployment/web deployment/api"
        ),
        Ok(format!(
            "deployment.apps/web \n{table}\n\ndeployment.apps/api \n{table}"
        ))
    );
    let one = run(
        &mut c,
        "kubectl rollout history deployment/web deployment/api --revision=1",
    )
    .unwrap();
    let blocks: Vec<&str> = one.split("\n\n").collect();
    assert_eq!(blocks.len(), 2, "{one}");
    assert!(blocks[0].starts_with("deployment.apps/web with revision #1\nPod Template:\n"));
    assert!(blocks[1].starts_with("deployment.apps/api with revision #1\nPod Template:\n"));
}

/// `rollout` as kubectl v0.36.3 runs it (issue 31, item 4): history as objects and one
/// revision's template, a negative revision refused, `undo` finding the revision before it
/// looks at `paused`, a second restart within the second refused, and a bare type meaning
/// every Deployment.
#[test]
fn rollout_history_undo_restart_and_a_bare_type_as_kubectl_does() {
    let mut c = cluster();
    run(&mut c, "kubectl set image deploy/web app=app:2").unwrap();
    c.drain().unwrap();
    let names = run(&mut c, "kubectl rollout history deploy/web -o name").unwrap();
    assert_eq!(names.lines().count(), 2, "{names}");
    assert!(
        names.lines().all(|l| l.starts_with("replicaset.apps/web-")),
        "{names}"
    );
    let yaml = run(
        &mut c,
        "kubectl rollout history deploy/web -o yaml --revision=2",
    )
    .unwrap();
    assert!(
        yaml.starts_with("apiVersion: apps/v1\nkind: ReplicaSet\n"),
        "{yaml}"
    );
    let one = run(&mut c, "kubectl rollout history deploy/web --revision=1").unwrap();
    assert!(
        one.starts_with(
            "deployment.apps/web with revision #1\nPod Template:\n  Labels:\tapp=web\n"
        ),
        "{one}"
    );
    assert!(one.contains("    Image:\tapp:1\n"), "{one}");
    assert_eq!(
        run(&mut c, "kubectl rollout history deploy/web --revision=-1"),
        Err("error: revision must be a positive integer: -1".into())
    );
    run(&mut c, "kubectl rollout pause deploy/web").unwrap();
    assert_eq!(
        run(&mut c, "kubectl rollout undo deploy/web --to-revision=9"),
        Err("error: unable to find specified revision 9 in history".into())
    );
    assert_eq!(
        run(&mut c, "kubectl rollout undo deploy/web"),
        Err("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into())
    );
    let template = run(&mut c, "kubectl rollout undo deploy/web --dry-run=client").unwrap();
    assert!(
        template.starts_with("deployment.apps/web Pod Template:\n"),
        "{template}"
    );
    assert!(template.ends_with(" (dry run)"), "{template}");
    assert_eq!(
        run(&mut c, "kubectl rollout resume deployment"),
        Ok("deployment.apps/web resumed".into())
    );
    assert_eq!(
        run(&mut c, "kubectl rollout restart deploy/web"),
        Ok("deployment.apps/web restarted".into())
    );
    assert_eq!(
        run(&mut c, "kubectl rollout restart deploy/web"),
        Err("error: failed to create patch for web: if restart has already been triggered within the past second, please wait before attempting to trigger another".into())
    );
    c.advance(1_000).unwrap();
    assert!(run(&mut c, "kubectl rollout restart deploy/web").is_ok());
    let rs = first_rs(&c);
    assert_eq!(
        run(&mut c, &format!("kubectl rollout pause rs/{rs}")),
        Err(format!(
            "error: replicasets.apps \"{rs}\" pausing is not supported"
        ))
    );
}
