//! The reader and writer against `serde_norway` (libyaml), which the playground used before:
//! same values from the same texts, same texts from the same values.

use super::*;
use crate::json;
use crate::value::Value;
use proptest::prelude::*;

fn oracle_docs(text: &str) -> Result<Vec<Value>, String> {
    let mut out = vec![];
    for d in serde_norway::Deserializer::from_str(text) {
        let v: serde_json::Value = serde::Deserialize::deserialize(d).map_err(|e| e.to_string())?;
        out.push(ours(v));
    }
    Ok(out)
}

/// libyaml's values (through serde_json's) as ours.
fn ours(v: serde_json::Value) -> Value {
    use serde_json::Value as J;
    match v {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(b),
        J::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Value::from(u),
            (_, Some(i), _) => Value::from(i),
            (_, _, Some(f)) => Value::from(f),
            _ => Value::Null,
        },
        J::String(s) => Value::String(s),
        J::Array(a) => Value::Array(a.into_iter().map(ours).collect()),
        J::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, ours(v))).collect()),
    }
}

/// What libyaml writes for one of our values.
fn libyaml_text(v: &Value) -> String {
    let j: serde_json::Value = serde_json::from_str(&v.to_string()).unwrap();
    serde_norway::to_string(&j).unwrap()
}

fn same_as_oracle(text: &str) {
    let ours = parse_documents(text).unwrap_or_else(|e| panic!("{e}\n---\n{text}"));
    let theirs = oracle_docs(text).unwrap_or_else(|e| panic!("oracle: {e}\n---\n{text}"));
    assert_eq!(ours, theirs, "\n---\n{text}");
}

fn gallery() -> Vec<(String, String)> {
    let mut v = vec![];
    for e in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios")).unwrap() {
        let p = e.unwrap().path();
        v.push((
            p.display().to_string(),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    v.sort();
    v
}

#[test]
fn reads_the_gallery_and_its_manifests_as_libyaml_does() {
    for (name, text) in gallery() {
        same_as_oracle(&text);
        let doc = parse(&text).unwrap();
        for o in doc["objects"].as_array().into_iter().flatten() {
            if let Some(m) = o.as_str() {
                same_as_oracle(m);
            }
        }
        // And what we write of it reads back the same, and is what libyaml writes.
        assert_eq!(to_string(&doc), libyaml_text(&doc), "{name}");
        assert_eq!(parse(&to_string(&doc)).unwrap(), doc, "{name}");
    }
}

/// A manifest in the style of the Kubernetes documentation and Helm output.
const REAL_WORLD_DEPLOYMENT: &str = r#"---
# Source: app/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: "web"
  labels:
    app.kubernetes.io/name: web
    helm.sh/chart: "web-1.2.3"
  annotations:
    deployment.kubernetes.io/revision: "3"
    description: >-
      A folded description
      over two lines.
spec:
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app.kubernetes.io/name: web
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: web
    spec:
      containers:
        - name: web
          image: "registry.example.com/web:1.2.3@sha256:0123abcd"
          imagePullPolicy: IfNotPresent
          args: ["--port=8080", "--log-level", 'debug']
          command:
          - /bin/sh
          - -c
          - |
            echo starting
            exec /app --config /etc/app/config.yaml
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
          env:
            - name: EMPTY
              value: ""
            - name: QUOTED_NUMBER
              value: "0123"
            - name: TRUE_STRING
              value: 'true'
          readinessProbe:
            httpGet: { path: /healthz, port: http }
            initialDelaySeconds: 5
          resources:
            limits: {cpu: 500m, memory: 128Mi}
            requests:
              cpu: 0.25
              memory: 64Mi
      nodeSelector: {}
      tolerations: []
...
"#;

#[test]
fn reads_the_shapes_manifests_take() {
    for text in [
        "a: 1\nb:\n  c: [1, 2, {d: e}]\n  f: {g: h, i: [j]}\n",
        "key:\n- a\n- b\nnext: c\n",
        "key:\n  - a\n  -   b\n  - - c\n    - d\n",
        "- name: app\n  image: nginx:1.14.2\n  ports:\n  - containerPort: 80\n- name: b\n",
        "s: |\n  line one\n  line two\n\n  after a blank\nt: x\n",
        "s: |-\n  no newline\nk: >\n  folded\n  text\n\n  para\n    more indented\n  back\nz: 1\n",
        "s: |+\n  keep\n\n\nk: v\n",
        "s: >-\n\n  leading blank line\n",
        "s: |2\n    two extra\n  base\n",
        "q: 'it''s'\nd: \"tab\\there \\u00e9 \\x41 \\\\ \\\"\"\n",
        "d: \"folded\n  over lines\n\n  and a break\"\n",
        "d: \"escaped \\\n  join\"\n",
        "s: 'single\n  folded'\n",
        "p: a plain\n  scalar over\n\n  lines\n",
        "url: http://example.com:8080/x#frag\nc: a:b\nh: a#b # comment\n",
        "# leading comment\n\na: 1 # trailing\n# between\nb: 2\n",
        "---\na: 1\n---\nb: 2\n...\n---\n- x\n",
        "--- |\n  top literal\n",
        "--- {a: 1}\n",
        "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"x\"},\n \"list\": [1, 2.5, true, null, \"s\"]}\n",
        "{\"a\":1,\"b\":[1,2],\"c\":{\"d\":\"e\"}}",
        "[a, b, [c, d], {e: f}, 'g', \"h\"]\n",
        "{a: [1,\n  2], b: multi\n  line plain}\n",
        "anchors:\n  base: &b {x: 1, y: [2]}\n  copy: *b\n  s: &s text\n  t: *s\n",
        "nums: [0, -1, +2, 0x1F, 0o17, 1.5, -2.5e3, .5, 5., 1e3, .inf, -.inf, .nan]\n",
        "words: [true, True, TRUE, false, yes, no, on, off, y, n, ~, null, Null, NULL, '']\n",
        "empty:\nalso: ~\nseq:\n-\n- x\n",
        "tagged: !!str 123\nint: !!int \"7\"\n",
        "k: v\r\nwindows: lines\r\n",
        "\u{feff}bom: yes\n",
        "unicode: héllo ✓ 日本\n",
        "a:\n  b:\n    c:\n      d: deep\n  e: 1\n",
        "-   a: 1\n    b: 2\n-   c: 3\n",
        "key:    spaced value   \n",
        "\"quoted key\": 1\n'other key': 2\n",
        "? ignored\n",
        REAL_WORLD_DEPLOYMENT,
        "# A list with comments at odd places\nitems:\n  # first\n  - a   # trailing\n    # between\n  - b\n\n# end\n",
        "key:\tvalue\nother:  \t x\n",
        "s: |\n  text\n   \n  more\n",
        "env:\n- name: A\n  value: \"1\"\n- name: B\n  valueFrom:\n    fieldRef: {fieldPath: metadata.name}\n",
    ] {
        if text.starts_with("? ") {
            assert!(parse_documents(text).is_err());
            continue;
        }
        same_as_oracle(text);
    }
    // libyaml's reader refuses integers past u64; ours reads them as floats, as JSON would.
    assert_eq!(
        parse("123456789012345678901").unwrap(),
        json!(123456789012345678901.0)
    );
    // The non-specific tag `!` keeps a plain scalar a string (libyaml's serde refuses it).
    assert_eq!(parse("a: ! 12").unwrap(), json!({"a": "12"}));
}

#[test]
fn refuses_what_it_does_not_read_with_the_line() {
    for (text, line, what) in [
        ("a: 1\n  b: 2\n", 2, "mapping values are not allowed"),
        ("a: [1, 2\nb: 3\n", 3, "expected ',' or ']'"),
        ("a: 'open\n", 2, "end of stream"),
        ("a: 1\na: 2\n", 2, "already defined"),
        ("a:\n\t- x\n", 2, "tab"),
        ("a: *nope\n", 1, "unknown anchor"),
        ("a: !custom x\n", 1, "tags such as !custom"),
        ("- a\nb: c\n", 2, "expected <document start>"),
        ("a: b: c\n", 1, "mapping values are not allowed"),
        ("a: \"bad \\q\"\n", 1, "unknown escape"),
        ("a: 1\n- b\n", 2, "sequence entry"),
        ("@x: 1\n", 1, "cannot start any token"),
    ] {
        let e = parse_documents(text).unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.message.contains(what), "{text:?}: {e}");
        assert!(
            oracle_docs(text).is_err() || what.contains("already defined") || what.contains("tags"),
            "{text:?}"
        );
    }
}

#[test]
fn writes_as_libyaml_does() {
    for v in [
        json!({"a": 1, "b": [1, 2], "c": {"d": "e"}, "f": [], "g": {}, "h": null}),
        json!([{"a": 1, "b": 2}, [1, [2, 3]], [], {}, "x"]),
        json!({"s": "line1\nline2", "t": "trailing\n", "u": "keep\n\n", "v": " lead\nx"}),
        json!({"quote": ["", "123", "1.5", "true", "yes", "null", "~", "- x", "a: b", "a #b", "#c",
            "'", "\"", "x'y", "tab\there", "trail ", " lead", "@at", "%p", "key:", "-1", ".inf",
            "0x1F", "a,b", "[x]", "{x}", "*a", "&a", "!t", "|", ">", "?", ":", "é", "bell\u{7}",
            "---", "--- x", "...", "a\u{85}b", "\u{feff}bom"]}),
        json!({"multi key\nx": 1, "": 2, "1": 3, "k:": 4}),
        json!({"nested": {"seq": [{"a": [1, 2], "b": {"c": "multi\nline"}}]}}),
        json!(["- |", "a\n\nb\n", "\n", "x\n \n"]),
        json!(1.5),
        json!("top\nlevel"),
        json!([]),
        json!({}),
    ] {
        let ours = to_string(&v);
        if !known_difference(&v) {
            assert_eq!(ours, libyaml_text(&v), "{v}");
        }
        assert_eq!(parse(&ours).unwrap(), v, "{ours}");
    }
}

/// Where this writer knowingly differs from libyaml: keys with line breaks (double-quoted
/// here, `? |` complex keys there) and line or paragraph separators (escaped here).
fn known_difference(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, v)| {
            k.contains(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']) || known_difference(v)
        }),
        Value::Array(a) => a.iter().any(known_difference),
        Value::String(s) => s.contains(['\u{2028}', '\u{2029}']),
        _ => false,
    }
}

fn value() -> impl Strategy<Value = Value> {
    const TEXT: &str = "[a-z0-9 :#'\"\\-\\n\\t.,!&*?|>{}\\[\\]é~]{0,12}";
    let text = || proptest::string::string_regex(TEXT).unwrap();
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 40, 5, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((text(), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_value_written_reads_back_and_matches_libyaml(v in value()) {
        let ours = to_string(&v);
        // (A key with a line break is double-quoted here; libyaml writes a `? |` complex key,
        // which this reader refuses.)
        if !known_difference(&v) {
            prop_assert_eq!(&ours, &libyaml_text(&v));
        }
        prop_assert_eq!(parse(&ours).unwrap(), v.clone());
        // kubectl's dialect quotes differently and reads back the same.
        prop_assert_eq!(parse(&to_string_kubectl(&v)).unwrap(), v);
    }

    #[test]
    fn any_text_is_read_or_refused_without_panicking(s in "[a-z :#'\"\\-\\n\\t\\[\\]{},|>&*!]{0,40}") {
        let _ = parse_documents(&s);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Block-structured text of every shape the reader handles: wherever both readers accept
    /// it, they read the same value. (This reader refuses duplicate keys, as kubectl's strict
    /// decoding does, and accepts a few texts libyaml refuses.)
    #[test]
    fn where_both_read_a_text_they_agree(
        s in "(( {0,4})(- )?(- )?([a-c]{1,2}: )?([a-c]{1,2}|'a b'|\"x\\\\ny\"|\\|-?|>\\+?|\\[a, 0x1\\]|\\{a: 1\\}|1|~|#c|&a b|\\*a)?\n){1,8}"
    ) {
        if let (Ok(ours), Ok(theirs)) = (parse_documents(&s), oracle_docs(&s)) {
            prop_assert_eq!(ours, theirs);
        }
    }
}

/// go-yaml's choices, as `kubectl get -o yaml` shows them: double quotes wherever its YAML 1.1
/// resolver would read something other than the string, single quotes where plain text would
/// not parse, plain otherwise.
#[test]
fn the_kubectl_dialect_quotes_as_go_yaml() {
    for (s, want) in [
        ("True", "\"True\""),
        ("1", "\"1\""),
        ("", "\"\""),
        ("null", "\"null\""),
        ("yes", "\"yes\""),
        ("off", "\"off\""),
        ("Y", "\"Y\""),
        ("<<", "\"<<\""),
        ("1_000", "\"1_000\""),
        ("0755", "\"0755\""),
        ("0b101", "\"0b101\""),
        ("1.5e3", "\"1.5e3\""),
        ("1:20", "\"1:20\""),
        ("190:20:30.15", "\"190:20:30.15\""),
        ("2026-01-01T00:00:00Z", "\"2026-01-01T00:00:00Z\""),
        (
            "2001-12-14t21:59:43.10-05:00",
            "\"2001-12-14t21:59:43.10-05:00\"",
        ),
        ("2002-12-14", "\"2002-12-14\""),
        ("2026-1-2 3:04:05", "\"2026-1-2 3:04:05\""),
        // Not numbers, booleans or timestamps: plain, or single-quoted where plain would not
        // parse, as libyaml's emitter (which go-yaml ports) falls back.
        ("2026-13-01", "2026-13-01"),
        ("1:60", "1:60"),
        ("nginx:1.14.2", "nginx:1.14.2"),
        ("25%", "25%"),
        ("app", "app"),
        ("yesterday", "yesterday"),
        ("_", "_"),
        ("a_1", "a_1"),
        ("- x", "'- x'"),
        ("a: b", "'a: b'"),
        ("#x", "'#x'"),
        ("tab\there", "\"tab\\there\""),
    ] {
        let v = json!({ "k": s });
        assert_eq!(to_string_kubectl(&v), format!("k: {want}\n"), "{s:?}");
        assert_eq!(parse(&to_string_kubectl(&v)).unwrap(), v, "{s:?}");
    }
    // Keys too; and line breaks make a literal block, as in both dialects.
    assert_eq!(
        to_string_kubectl(&json!({"8080": "a\nb\n"})),
        "\"8080\": |\n  a\n  b\n"
    );
}
