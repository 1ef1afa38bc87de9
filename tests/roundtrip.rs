//! Property test: any API object written as YAML reads back as the same object, through both
//! writers (serde_norway's, which scenario files and the editor use, and kubectl's go-yaml
//! dialect, which `get -o yaml` and the inspector print), and fields the playground does not
//! model survive the trip. Strings are drawn to provoke quoting: ones that read as other types
//! in YAML 1.1 or 1.2, indicators, line breaks, leading and trailing spaces, non-ASCII.

use proptest::prelude::*;
use rollout_playground::api::yaml::{parse_objects, to_editor_yaml, to_yaml};
use rollout_playground::api::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9.-]{0,12}",
        "\\PC{0,16}",
        prop::sample::select(vec![
            "true",
            "True",
            "yes",
            "no",
            "on",
            "off",
            "y",
            "N",
            "null",
            "~",
            "",
            "1",
            "-1",
            "0x1F",
            "0o17",
            "017",
            "1_000",
            "1e3",
            ".5",
            ".inf",
            "-.Inf",
            ".nan",
            "1:20",
            "2024-01-02",
            "2024-01-02T03:04:05Z",
            "<<",
            "- x",
            "? y",
            "a: b",
            "a #b",
            "#c",
            "'q'",
            "\"d\"",
            "@x",
            "`x",
            "%x",
            "*a",
            "&a",
            "!t",
            "|",
            ">",
            "[x",
            "{x",
            " lead",
            "trail ",
            "two\nlines",
            "tail\n",
            "\n\nlead",
            "tab\there",
            "cr\r\nlf",
            "nel\u{85}x",
            "ls\u{2028}x",
            "ctl\u{7}x",
            "é€😀",
            "25%",
            "nginx:1.25",
        ])
        .prop_map(String::from),
    ]
}

fn map(n: usize) -> impl Strategy<Value = BTreeMap<String, String>> {
    prop::collection::btree_map(text(), text(), 0..n)
}

/// A JSON value for an unmodelled field (keys kept clear of the modelled ones).
fn extra_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        text().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("x[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn extras() -> impl Strategy<Value = Extra> {
    prop::collection::btree_map("x[A-Za-z]{1,8}", extra_value(), 0..3)
        .prop_map(|m| Shared::new(m.into_iter().collect::<Map>()))
}

fn time() -> impl Strategy<Value = Option<Time>> {
    prop::option::of((0u64..4_000_000_000_000).prop_map(Time::from_virtual))
}

fn meta() -> impl Strategy<Value = ObjectMeta> {
    (
        (text(), text(), map(3), map(3), any::<i64>(), time()),
        (
            prop::collection::vec(text(), 0..2),
            prop::option::of(any::<i64>()),
            extras(),
        ),
    )
        .prop_map(
            |((name, uid, labels, annotations, generation, created), (fin, grace, extra))| {
                ObjectMeta {
                    name: name.into(),
                    uid: uid.into(),
                    labels: Shared::new(labels),
                    annotations,
                    generation,
                    creation_timestamp: created,
                    finalizers: fin,
                    deletion_grace_period_seconds: grace,
                    owner_references: Shared::new(vec![OwnerReference {
                        api_version: "apps/v1".into(),
                        kind: "ReplicaSet".into(),
                        name: "web-1".into(),
                        uid: "u-1".into(),
                        controller: Some(true),
                        block_owner_deletion: None,
                    }]),
                    extra,
                    ..ObjectMeta::default()
                }
            },
        )
}

fn int_or_string() -> impl Strategy<Value = Option<IntOrString>> {
    prop::option::of(prop_oneof![
        any::<i32>().prop_map(IntOrString::Int),
        text().prop_map(IntOrString::Str),
    ])
}

fn pod_spec() -> impl Strategy<Value = PodSpec> {
    (
        prop::collection::vec((text(), text(), extras()), 0..3),
        text(),
        prop::option::of(any::<i64>()),
        extras(),
    )
        .prop_map(|(cs, restart, grace, extra)| PodSpec {
            containers: Shared::new(
                cs.into_iter()
                    .map(|(name, image, extra)| Container {
                        name: name.into(),
                        image: image.into(),
                        extra,
                    })
                    .collect(),
            ),
            restart_policy: restart.into(),
            termination_grace_period_seconds: grace,
            extra,
            ..PodSpec::default()
        })
}

fn deployment() -> impl Strategy<Value = Deployment> {
    (
        meta(),
        (meta(), pod_spec()),
        (
            prop::option::of(any::<i32>()),
            any::<i32>(),
            any::<bool>(),
            text(),
            int_or_string(),
            int_or_string(),
        ),
        (map(2), extras(), any::<i32>(), text()),
    )
        .prop_map(
            |(
                metadata,
                (tm, ts),
                (replicas, mrs, paused, ty, surge, unavail),
                (sel, extra, n, reason),
            )| {
                Deployment {
                    metadata,
                    spec: DeploymentSpec {
                        replicas,
                        selector: Some(LabelSelector::from_labels(&sel)),
                        template: PodTemplateSpec {
                            metadata: tm,
                            spec: ts,
                        },
                        strategy: DeploymentStrategy {
                            type_: ty,
                            rolling_update: Some(RollingUpdateDeployment {
                                max_surge: surge,
                                max_unavailable: unavail,
                            }),
                        },
                        min_ready_seconds: mrs,
                        paused,
                        extra,
                        ..DeploymentSpec::default()
                    },
                    status: DeploymentStatus {
                        replicas: n,
                        conditions: vec![DeploymentCondition {
                            type_: "Available".into(),
                            status: "True".into(),
                            reason,
                            ..DeploymentCondition::default()
                        }],
                        ..DeploymentStatus::default()
                    },
                }
            },
        )
}

fn pod() -> impl Strategy<Value = Pod> {
    let ip = proptest::option::of(any::<u32>().prop_map(std::net::Ipv4Addr::from));
    (meta(), pod_spec(), text(), time(), extras(), ip).prop_map(
        |(metadata, spec, phase, t, extra, ip)| Pod {
            ip,
            metadata,
            spec: Shared::new(spec),
            status: Shared::new(PodStatus {
                phase: phase.into(),
                start_time: t,
                conditions: vec![PodCondition {
                    type_: "Ready".into(),
                    status: "False".into(),
                    last_transition_time: t,
                    ..PodCondition::default()
                }],
                extra,
                ..PodStatus::default()
            }),
        },
    )
}

fn reads_back(obj: &Object) -> Result<(), TestCaseError> {
    for (writer, text) in [
        ("serde_norway", to_editor_yaml(&obj.to_value())),
        ("kubectl", to_yaml(obj)),
    ] {
        let back = parse_objects(&text)
            .map_err(|e| TestCaseError::fail(format!("{writer}: {e}\n{text}")))?;
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(&back[0], obj, "{} wrote:\n{}", writer, text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_deployment_reads_back_from_its_yaml(d in deployment()) {
        reads_back(&Object::Deployment(Box::new(d)))?;
    }

    #[test]
    fn a_pod_reads_back_from_its_yaml(p in pod()) {
        reads_back(&Object::Pod(p))?;
    }
}

#[test]
fn unknown_fields_survive_a_manifest_read_and_written() {
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  futureMeta: [1, 2]\nspec:\n  replicas: 2\n  futureSpec: {a: {b: true}}\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx\n        livenessProbe: {exec: {command: [cat, /ok]}}\n      affinity: {nodeAffinity: {}}\n";
    let obj = parse_objects(text).unwrap().remove(0);
    let v = obj.to_value();
    assert_eq!(v["metadata"]["futureMeta"], json!([1, 2]));
    assert_eq!(v["spec"]["futureSpec"], json!({"a": {"b": true}}));
    assert_eq!(
        v["spec"]["template"]["spec"]["containers"][0]["livenessProbe"],
        json!({"exec": {"command": ["cat", "/ok"]}})
    );
    assert_eq!(
        v["spec"]["template"]["spec"]["affinity"],
        json!({"nodeAffinity": {}})
    );
    assert_eq!(
        parse_objects(&to_yaml(&obj)).unwrap().remove(0),
        obj,
        "kubectl's YAML"
    );
}
