//! kubectl's writes, checked: `patch`, `label`, `annotate`, `set`, `scale` and `delete` with
//! their preconditions and refusals, and `--dry-run`.

use super::*;

#[test]
fn patch_takes_kubectl_s_three_types_on_every_kind() {
    let mut c = cluster();
    let rs = first_rs(&c);
    let pod = c.store.pods().next().unwrap().metadata.name.to_string();
    for (cmd, want) in [
        (
            r#"kubectl patch deployment web --type json -p '[{"op":"replace","path":"/spec/replicas","value":3}]'"#.to_string(),
            "deployment.apps/web patched".to_string(),
        ),
        (
            format!(r#"kubectl patch rs {rs} --type merge -p '{{"metadata":{{"labels":{{"team":"a"}}}}}}'"#),
            format!("replicaset.apps/{rs} patched"),
        ),
        (
            format!(r#"kubectl patch pod/{pod} -p '{{"metadata":{{"annotations":{{"note":"x"}}}}}}'"#),
            format!("pod/{pod} patched"),
        ),
        (
            format!(r#"kubectl patch pod/{pod} -p '{{"metadata":{{"annotations":{{"note":"x"}}}}}}'"#),
            format!("pod/{pod} patched (no change)"),
        ),
    ] {
        assert_eq!(run(&mut c, &cmd), Ok(want), "{cmd}");
    }
    assert_eq!(
        c.store.deployment("default/web").unwrap().spec.replicas,
        Some(3)
    );
    for (cmd, err) in [
        (
            "kubectl patch deployment web --type apply -p '{}'",
            "error: --type must be one of [json merge strategic], not \"apply\"",
        ),
        (
            "kubectl patch deployment web --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/nope\"}]'",
            "Error from server: ",
        ),
        (
            "kubectl patch deployment web --type json -p '{\"spec\":{}}'",
            "as a JSON patch",
        ),
        (
            "kubectl patch deployment web -p '{\"spec\": {'",
            "error: unable to parse \"{\"spec\": {\": ",
        ),
    ] {
        let e = run(&mut c, cmd).unwrap_err();
        assert!(e.contains(err), "{cmd}: {e}");
    }
}

#[test]
fn a_strategic_merge_patch_merges_lists_on_their_keys() {
    let mut target = serde_json::json!({"spec": {"containers": [
        {"name": "app", "image": "a:1", "env": [{"name": "A", "value": "1"}]},
        {"name": "side", "image": "s:1"}
    ]}, "metadata": {"ownerReferences": [{"uid": "u1", "name": "x"}]}});
    let patch = serde_json::json!({"spec": {"containers": [
        {"name": "app", "env": [{"name": "B", "value": "2"}, {"name": "A", "value": "3"}]}
    ]}, "metadata": {"ownerReferences": [{"uid": "u1", "controller": true}]}});
    crate::kubectl::patch::strategic_patch(&mut target, &patch);
    assert_eq!(
        target,
        serde_json::json!({"spec": {"containers": [
            {"name": "app", "image": "a:1", "env": [{"name": "A", "value": "3"}, {"name": "B", "value": "2"}]},
            {"name": "side", "image": "s:1"}
        ]}, "metadata": {"ownerReferences": [{"uid": "u1", "name": "x", "controller": true}]}})
    );
}

#[test]
fn delete_label_and_annotate_take_a_selector() {
    let mut c = cluster();
    let pods: Vec<String> = c
        .store
        .pods()
        .map(|p| p.metadata.name.to_string())
        .collect();
    assert_eq!(pods.len(), 2);
    let labeled = run(&mut c, "kubectl label pods -l app=web tier=x").unwrap();
    assert_eq!(
        labeled,
        pods.iter()
            .map(|p| format!("pod/{p} labeled"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        c.store
            .pods()
            .all(|p| p.metadata.labels.get("tier").map(String::as_str) == Some("x"))
    );
    let annotated = run(
        &mut c,
        "kubectl annotate deployment --selector tier=1 note=hi",
    )
    .unwrap();
    assert_eq!(annotated, "deployment.apps/web annotated");
    assert_eq!(
        run(&mut c, "kubectl label pods -l app=none a=b"),
        Ok(String::new())
    );
    assert_eq!(
        run(&mut c, "kubectl delete pods -l app=none"),
        Ok("No resources found".into())
    );
    let deleted = run(&mut c, "kubectl delete pods -l app=web").unwrap();
    assert_eq!(
        deleted,
        pods.iter()
            .map(|p| format!("pod \"{p}\" deleted from default namespace"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(
        run(&mut c, "kubectl scale deployment web -x 3"),
        Err("error: unknown shorthand flag: 'x' in -x".into())
    );
}

#[test]
fn set_env_and_set_resources_change_the_template_as_kubectl_does() {
    let mut c = cluster();
    let container = |c: &Cluster| {
        let d = c.store.deployment("default/web").unwrap();
        crate::api::codec::to_value(&d.spec.template.spec.containers[0])
    };
    assert_eq!(
        run(&mut c, "kubectl set env deployment/web A=1 B=2"),
        Ok("deployment.apps/web env updated".into())
    );
    assert_eq!(
        run(&mut c, "kubectl set env deployment/web B=3 A-"),
        Ok("deployment.apps/web env updated".into())
    );
    assert_eq!(
        container(&c)["env"],
        serde_json::json!([{"name": "B", "value": "3"}])
    );
    assert_eq!(
        run(&mut c, "kubectl set env deployment/web B=3"),
        Ok(String::new())
    );
    // kubectl v0.36.3 `set env` warns of an object without such a container and goes on.
    assert_eq!(
        run(&mut c, "kubectl set env deployment/web -c nope X=1"),
        Ok("Warning: Deployment/web does not have any containers matching \"nope\"".into())
    );
    assert_eq!(
        run(
            &mut c,
            "kubectl set resources deployment/web --limits=cpu=200m,memory=512Mi --requests=cpu=100m"
        ),
        Ok("deployment.apps/web resource requirements updated".into())
    );
    assert_eq!(
        container(&c)["resources"],
        serde_json::json!({"limits": {"cpu": "200m", "memory": "512Mi"}, "requests": {"cpu": "100m"}})
    );
    assert!(
        run(
            &mut c,
            "kubectl set resources deployment/web --limits=cpu=lots"
        )
        .unwrap_err()
        .contains("quantities must match")
    );
    assert_eq!(
        c.store
            .deployment("default/web")
            .unwrap()
            .metadata
            .generation,
        4,
        "three template changes"
    );
}

/// kubectl's DeleteOptions: `--grace-period=0` alone becomes 1 (the pod terminates), with
/// `--force` the pod goes at once and kubectl says so, with its warning.
#[test]
fn delete_makes_a_zero_grace_period_one_unless_forced() {
    let mut c = cluster();
    c.advance(10_000).unwrap();
    let pods: Vec<String> = c
        .store
        .pods()
        .map(|p| p.metadata.name.to_string())
        .collect();
    let out = run(
        &mut c,
        &format!("kubectl delete pod {} --grace-period=0", pods[0]),
    )
    .unwrap();
    assert_eq!(
        out,
        format!("pod \"{}\" deleted from default namespace", pods[0])
    );
    let p = c
        .store
        .pod(&format!("default/{}", pods[0]))
        .expect("still terminating");
    assert_eq!(p.metadata.deletion_grace_period_seconds, Some(1));
    let out = run(
        &mut c,
        &format!("kubectl delete pod {} --grace-period=0 --force", pods[1]),
    )
    .unwrap();
    assert!(
        out.starts_with("Warning: Immediate deletion does not wait"),
        "{out}"
    );
    assert!(
        out.ends_with(&format!(
            "pod \"{}\" force deleted from default namespace",
            pods[1]
        )),
        "{out}"
    );
    assert!(c.store.pod(&format!("default/{}", pods[1])).is_none());
    let err = run(&mut c, "kubectl delete deploy web --now --grace-period=5").unwrap_err();
    assert_eq!(
        err,
        "error: --now and --grace-period cannot be specified together"
    );
}

/// kubectl set image prints nothing for an object it leaves as it was (an empty patch).
#[test]
fn set_image_to_the_same_image_says_nothing() {
    let mut c = cluster();
    let out = run(&mut c, "kubectl set image deployment/web app=app:1").unwrap();
    assert_eq!(out, "");
    let out = run(&mut c, "kubectl set image deployment/web app=app:2").unwrap();
    assert_eq!(out, "deployment.apps/web image updated");
}

/// `scale --current-replicas` is kubectl's size precondition: a different current size is
/// refused and nothing changes; -1 (the default) is no condition.
#[test]
fn scale_checks_the_current_replicas_precondition() {
    let mut c = cluster();
    let rs = first_rs(&c);
    let replicas = |c: &Cluster| c.store.deployment("default/web").unwrap().spec.replicas;
    for (cmd, err) in [
        (
            "kubectl scale deployment/web --current-replicas=3 --replicas=5",
            "error: Expected replicas to be 3, was 2",
        ),
        (
            "kubectl scale deployment/web --current-replicas=-2 --replicas=5",
            "error: The --current-replicas must specify an integer of -1 or greater",
        ),
        (
            "kubectl scale deployment/web --current-replicas two --replicas=5",
            "error: invalid argument \"two\" for \"--current-replicas\" flag: strconv.ParseInt: parsing \"two\": invalid syntax",
        ),
        (
            &format!("kubectl scale rs {rs} --current-replicas=1 --replicas=5"),
            "error: Expected replicas to be 1, was 2",
        ),
    ] {
        assert_eq!(run(&mut c, cmd).unwrap_err(), err, "{cmd}");
        assert_eq!(replicas(&c), Some(2), "{cmd}");
    }
    let out = run(
        &mut c,
        "kubectl scale deployment/web --current-replicas=2 --replicas=5",
    );
    assert_eq!(out.unwrap(), "deployment.apps/web scaled");
    assert_eq!(replicas(&c), Some(5));
    let out = run(
        &mut c,
        "kubectl scale deployment/web --current-replicas=-1 --replicas=4",
    );
    assert_eq!(out.unwrap(), "deployment.apps/web scaled");
    assert_eq!(replicas(&c), Some(4));
}

/// `scale --resource-version` is the scale's resourceVersion precondition, as kubectl's
/// `TestGenericScaleSimple` case 5 asserts (`Expected resource version to be v1, was N`);
/// the matching version scales, and two objects with it are refused before either is read.
#[test]
fn scale_checks_the_resource_version_precondition_as_test_generic_scale_simple() {
    let mut c = cluster();
    let rv = |c: &Cluster| {
        c.store
            .deployment("default/web")
            .unwrap()
            .metadata
            .resource_version
            .to_string()
    };
    let before = rv(&c);
    assert_eq!(
        run(
            &mut c,
            "kubectl scale deployment/web --resource-version=v1 --replicas=5"
        ),
        Err(format!(
            "error: Expected resource version to be v1, was {before}"
        ))
    );
    assert_eq!(rv(&c), before, "nothing written");
    let rs = first_rs(&c);
    assert_eq!(
        run(
            &mut c,
            &format!(
                "kubectl scale deployment/web rs/{rs} --resource-version={before} --replicas=5"
            )
        ),
        Err("error: cannot use --resource-version with multiple resources".into())
    );
    assert_eq!(
        run(
            &mut c,
            &format!("kubectl scale deployment/web --resource-version={before} --replicas=5")
        ),
        Ok("deployment.apps/web scaled".into())
    );
    let replicas = c.store.deployment("default/web").unwrap().spec.replicas;
    assert_eq!(replicas, Some(5));
}

/// kubectl label and annotate refuse a key that already has another value without
/// --overwrite, each in its own words (kubectl v0.36.3 `validateNoOverwrites`,
/// `validateNoAnnotationOverwrites`); the same value is no change; the change-cause
/// annotation is always set.
#[test]
fn label_and_annotate_refuse_a_key_already_there_without_overwrite() {
    let mut c = cluster();
    for (cmd, want) in [
        (
            "label deployment/web env=prod",
            Ok("deployment.apps/web labeled"),
        ),
        (
            "label deployment/web env=prod",
            Ok("deployment.apps/web not labeled"),
        ),
        (
            "label deployment/web env=dev",
            Err("error: 'env' already has a value (prod), and --overwrite is false"),
        ),
        (
            "label deployment/web env=dev --overwrite",
            Ok("deployment.apps/web labeled"),
        ),
        (
            "annotate deployment/web note=x",
            Ok("deployment.apps/web annotated"),
        ),
        (
            "annotate deployment/web note=x",
            Ok("deployment.apps/web annotated"),
        ),
        (
            "annotate deployment/web note=y",
            Err(
                "error: --overwrite is false but found the following declared annotation(s): 'note' already has a value (x)",
            ),
        ),
        (
            "annotate deployment/web kubernetes.io/change-cause=a",
            Ok("deployment.apps/web annotated"),
        ),
        (
            "annotate deployment/web kubernetes.io/change-cause=b",
            Ok("deployment.apps/web annotated"),
        ),
    ] {
        let cmd = format!("kubectl {cmd}");
        let got = run(&mut c, &cmd);
        assert_eq!(
            got.as_deref(),
            want.map_err(String::from).as_deref(),
            "{cmd}"
        );
    }
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(d.metadata.labels["env"], "dev");
    assert_eq!(d.metadata.annotations["note"], "x");
    assert_eq!(d.metadata.annotations["kubernetes.io/change-cause"], "b");
}

/// kubectl label says what changed (kubectl v0.36.3 `updateDataChangeMsg`): keys added or
/// given a new value, "labeled"; keys removed, "unlabeled"; both, "modified"; neither, "not
/// labeled". A label to remove that is not there is reported first.
#[test]
fn label_tells_how_the_labels_changed_as_kubectl_does() {
    let mut c = cluster();
    for (cmd, want) in [
        ("tier=1 --overwrite", "deployment.apps/web not labeled"),
        ("env=prod", "deployment.apps/web labeled"),
        ("env-", "deployment.apps/web unlabeled"),
        (
            "env-",
            "label \"env\" not found.\ndeployment.apps/web not labeled",
        ),
        ("tier=12 --overwrite", "deployment.apps/web labeled"),
        ("tier=1 --overwrite", "deployment.apps/web labeled"),
        ("x=1 tier-", "deployment.apps/web modified"),
        ("x- --overwrite", "deployment.apps/web unlabeled"),
        (
            "tier-",
            "label \"tier\" not found.\ndeployment.apps/web not labeled",
        ),
    ] {
        let cmd = format!("kubectl label deployment/web {cmd}");
        assert_eq!(run(&mut c, &cmd).unwrap(), want, "{cmd}");
    }
    assert!(
        c.store
            .deployment("default/web")
            .unwrap()
            .metadata
            .labels
            .is_empty()
    );
}

/// `kubectl delete` as kubectl's resource builder reads its arguments (cli-runtime v0.36.2
/// `ResourceTypeOrNameArgs`, kubectl v0.36.3 `pkg/cmd/delete`, `ContinueOnError`): several
/// names of one type, several `TYPE/NAME`s, and a name not found among them said after the
/// others are deleted (issue 31: `delete pod a b c` deleted `a` alone, without a word).
#[test]
fn delete_takes_several_names_and_goes_on_past_one_not_found() {
    let mut c = cluster();
    run(&mut c, "kubectl scale deployment/web --replicas=3").unwrap();
    c.drain().unwrap();
    let pods: Vec<String> = c
        .store
        .pods()
        .map(|p| p.metadata.name.to_string())
        .collect();
    assert_eq!(pods.len(), 3);
    let gone = |c: &Cluster, name: &str| {
        c.store
            .pod(&format!("default/{name}"))
            .is_none_or(|p| p.metadata.deletion_timestamp.is_some())
    };
    let out = run(
        &mut c,
        &format!("kubectl delete pod {} missing {}", pods[0], pods[1]),
    )
    .unwrap();
    assert_eq!(
        out,
        format!(
            "pod \"{}\" deleted from default namespace\npod \"{}\" deleted from default namespace\nError from server (NotFound): pods \"missing\" not found",
            pods[0], pods[1]
        )
    );
    assert!(gone(&c, &pods[0]) && gone(&c, &pods[1]) && !gone(&c, &pods[2]));
    let out = run(
        &mut c,
        &format!("kubectl delete pod/{} po/{}", pods[2], pods[0]),
    )
    .unwrap();
    assert!(
        out.starts_with(&format!("pod \"{}\" deleted", pods[2])),
        "{out}"
    );
    assert!(gone(&c, &pods[2]));
    // Nothing found: nothing changed, and the errors are the command's, one a line.
    let before = c.store.resource_version();
    assert_eq!(
        run(&mut c, "kubectl delete pod nobody nowhere"),
        Err("Error from server (NotFound): pods \"nobody\" not found\nError from server (NotFound): pods \"nowhere\" not found".into())
    );
    assert_eq!(c.store.resource_version(), before);
    // A bare type beside TYPE/NAME, either way round, is refused as the builder refuses it.
    for cmd in ["kubectl delete pod pod/a", "kubectl delete pod/a b"] {
        let err = run(&mut c, cmd).unwrap_err();
        assert!(
            err.starts_with(
                "error: there is no need to specify a resource type as a separate argument"
            ),
            "{cmd}: {err}"
        );
    }
}

/// `--dry-run` on every verb that writes (issue 31, item 3): kubectl's line with `(dry run)`
/// or `(server dry run)`, and nothing written; the server dry run still validates.
#[test]
fn dry_run_prints_what_would_happen_and_writes_nothing() {
    let mut c = cluster();
    let rs = first_rs(&c);
    let before = c.store.resource_version();
    let delete_rs = format!("kubectl delete rs/{rs} --dry-run=server");
    for (cmd, want) in [
        (
            "kubectl scale deploy/web --replicas=5 --dry-run=client",
            "deployment.apps/web scaled (dry run)".to_string(),
        ),
        (
            "kubectl scale deploy/web --replicas=5 --dry-run=server",
            "deployment.apps/web scaled (server dry run)".into(),
        ),
        (
            "kubectl label deploy/web a=b --dry-run=server",
            "deployment.apps/web labeled (server dry run)".into(),
        ),
        (
            "kubectl annotate deploy/web a=b --dry-run=client",
            "deployment.apps/web annotated (dry run)".into(),
        ),
        (
            "kubectl set image deploy/web app=app:2 --dry-run=server",
            "deployment.apps/web image updated (server dry run)".into(),
        ),
        (
            "kubectl set env deploy/web A=1 --dry-run=client",
            "deployment.apps/web env updated (dry run)".into(),
        ),
        (
            "kubectl set resources deploy/web --limits=cpu=0.5 --dry-run=server",
            "deployment.apps/web resource requirements updated (server dry run)".into(),
        ),
        (
            "kubectl patch deploy/web -p '{\"spec\":{\"replicas\":4}}' --dry-run=server",
            "deployment.apps/web patched (server dry run)".into(),
        ),
        (
            delete_rs.as_str(),
            format!("replicaset.apps \"{rs}\" deleted from default namespace (server dry run)"),
        ),
        (
            "kubectl delete deploy web --dry-run=client",
            "deployment.apps \"web\" deleted from default namespace (dry run)".into(),
        ),
    ] {
        assert_eq!(run(&mut c, cmd), Ok(want), "{cmd}");
    }
    assert_eq!(c.store.resource_version(), before, "nothing written");
    // The server dry run validates; the client one does not ask the server.
    assert!(
        run(
            &mut c,
            "kubectl scale deploy/web --replicas=2 --dry-run=server -o name"
        )
        .is_ok()
    );
    let invalid = run(
        &mut c,
        "kubectl patch deploy/web -p '{\"spec\":{\"replicas\":-1}}' --dry-run=server",
    )
    .unwrap_err();
    assert!(
        invalid.contains("spec.replicas: Invalid value: -1"),
        "{invalid}"
    );
    assert_eq!(
        run(
            &mut c,
            "kubectl scale deploy/web --replicas=1 --dry-run=maybe"
        ),
        Err(
            "error: Invalid dry-run value (maybe). Must be \"none\", \"server\", or \"client\"."
                .into()
        )
    );
    let bare = run(&mut c, "kubectl label deploy/web a=b --dry-run").unwrap();
    assert!(bare.starts_with("W0101 00:00:00.000000       1 helpers.go:719] --dry-run is deprecated and can be replaced with --dry-run=client.\n"), "{bare}");
    assert!(
        bare.ends_with("deployment.apps/web labeled (dry run)"),
        "{bare}"
    );
    assert_eq!(c.store.resource_version(), before, "nothing written");
}
