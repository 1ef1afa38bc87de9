//! Flags as the verb table declares them (once each, with shorthand, value and help): pflag's
//! reading of them, a command's `--help`, completion, and the table itself.

use super::*;
use crate::kubectl::command::{Flag, Takes};
use crate::kubectl::parse;

fn all_rows() -> Vec<(String, &'static [Flag])> {
    let mut rows = vec![];
    for v in VERBS.iter() {
        rows.push((v.name.to_string(), v.flags));
        for s in v.subcommands {
            rows.push((format!("{} {}", v.name, s.name), s.flags));
        }
    }
    rows
}

/// No row declares a long name or a shorthand twice, nor the global `-n, --namespace`, and
/// every flag says what it does.
#[test]
fn each_flag_is_declared_once_in_its_row_with_its_help() {
    for (row, flags) in all_rows() {
        let mut longs: Vec<&str> = flags.iter().map(|f| f.long).collect();
        longs.push("namespace");
        let n = longs.len();
        longs.sort();
        longs.dedup();
        assert_eq!(longs.len(), n, "{row}: a long name twice");
        let mut shorts: Vec<char> = flags.iter().filter_map(|f| f.short).collect();
        shorts.push('n');
        let n = shorts.len();
        shorts.sort();
        shorts.dedup();
        assert_eq!(shorts.len(), n, "{row}: a shorthand twice");
        for f in flags {
            assert!(
                f.help.ends_with('.') && f.help.len() > 10,
                "{row} --{}",
                f.long
            );
        }
    }
}

/// Each flag a row declares is one its command accepts, in each of pflag's spellings (a
/// refusal may follow, for a value or a missing object, but never "unknown flag").
#[test]
fn every_declared_flag_is_accepted_in_each_spelling() {
    let mut c = cluster();
    for (row, flags) in all_rows() {
        for f in flags {
            let value = if f.takes == Takes::Value { "=1" } else { "" };
            let mut spellings = vec![format!("--{}{value}", f.long)];
            if let Some(s) = f.short {
                spellings.push(format!("-{s}{value}"));
            }
            for flag in spellings {
                let line = format!("kubectl {row} {flag}");
                let out = run(&mut c, &line);
                if let Err(e) = out {
                    let e = e.to_string();
                    assert!(!e.contains("unknown"), "{line}: {e}");
                }
            }
        }
    }
}

/// pflag's reading: a shorthand's value joined to it (`-oyaml`), shorthands together, `=`
/// after a shorthand, a switch that takes no next word (`--dry-run client` names a node), the
/// first unknown flag refused in pflag's words, and everything after `--` words.
#[test]
fn flags_are_read_as_pflag_reads_them() {
    let mut c = cluster();
    let yaml = run(&mut c, "kubectl get deployment web -o yaml").unwrap();
    assert_eq!(
        run(&mut c, "kubectl get deployment web -oyaml").unwrap(),
        yaml
    );
    assert_eq!(
        run(&mut c, "kubectl get deployment web -o=yaml").unwrap(),
        yaml
    );
    assert_eq!(
        run(&mut c, "kubectl get deployment web --output=yaml").unwrap(),
        yaml
    );
    let wide = run(&mut c, "kubectl get deployments -A").unwrap();
    assert!(wide.starts_with("NAMESPACE"), "{wide}");
    for (line, err) in [
        (
            "kubectl get pods --frobnicate",
            "error: unknown flag: --frobnicate",
        ),
        (
            "kubectl get pods -x",
            "error: unknown shorthand flag: 'x' in -x",
        ),
        (
            "kubectl get pods -Ax",
            "error: unknown shorthand flag: 'x' in -Ax",
        ),
        (
            "kubectl get pods -o",
            "error: flag needs an argument: 'o' in -o",
        ),
        (
            "kubectl get pods --output",
            "error: flag needs an argument: --output",
        ),
        // The first problem is the one pflag reports.
        ("kubectl get pods --nope -o", "error: unknown flag: --nope"),
        // `-- -A` is a word, here a resource type (which the mapper lowercases).
        (
            "kubectl get -- -A",
            "error: the server doesn't have a resource type \"-a\"",
        ),
    ] {
        assert_eq!(run(&mut c, line).unwrap_err().to_string(), err, "{line}");
    }
    // `--dry-run` takes its value only after `=`: `client` is the node to drain.
    let out = run(&mut c, "kubectl drain --dry-run client")
        .unwrap_err()
        .to_string();
    assert!(out.contains("nodes \"client\" not found"), "{out}");
    // A command's flags are its subcommand's.
    let e = run(
        &mut c,
        "kubectl rollout status deployment/web --to-revision=1",
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "error: unknown flag: --to-revision");
    let words = parse("kubectl set env deployment/web -e A=1 -c app B=2").unwrap();
    assert_eq!(words.words(), ["env", "deployment/web", "B=2"]);
}

/// `kubectl get --help`, `kubectl rollout -h`, `kubectl help rollout status`: the row's short
/// description, its options sorted by name as kubectl's templates print them (or its
/// subcommands), its usage; read-only, and nothing is run.
#[test]
fn a_commands_help_comes_from_its_row() {
    let mut c = cluster();
    let get = run(&mut c, "kubectl get --help").unwrap();
    assert!(
        get.starts_with(
            "Display one or many resources.\n\nOptions:\n    -A, --all-namespaces=false:\n\t"
        ),
        "{get}"
    );
    assert!(
        get.contains("\n    -o, --output='':\n\tOutput format"),
        "{get}"
    );
    assert!(get.contains("\n    --show-kind=false:\n\t"), "{get}");
    assert!(get.contains("\nUsage:\n  kubectl get [options]\n"), "{get}");
    assert!(
        !get.contains("-n, --namespace"),
        "the global flag is `kubectl options`' "
    );
    assert_eq!(run(&mut c, "kubectl get pods -h").unwrap(), get);
    assert_eq!(run(&mut c, "kubectl help get").unwrap(), get);
    let rollout = run(&mut c, "kubectl rollout -h").unwrap();
    assert!(
        rollout.contains("\nAvailable Commands:\n  history     View rollout history\n  pause       Mark the provided resource as paused\n"),
        "{rollout}"
    );
    assert!(
        rollout.contains("Usage:\n  kubectl rollout SUBCOMMAND [options]"),
        "{rollout}"
    );
    let status = run(&mut c, "kubectl help rollout status").unwrap();
    assert!(
        status.starts_with("Show the status of the rollout.\n\nOptions:\n"),
        "{status}"
    );
    assert!(status.contains("    -w, --watch=true:\n"), "{status}");
    assert_eq!(
        run(&mut c, "kubectl rollout status deployment/web --help").unwrap(),
        status
    );
    // The scale is not run, and the line only reads.
    assert!(is_read_only(
        "kubectl scale deployment/web --replicas=5 --help"
    ));
    let before = run(&mut c, "kubectl get deployment web -o yaml").unwrap();
    run(&mut c, "kubectl scale deployment/web --replicas=5 --help").unwrap();
    assert_eq!(
        run(&mut c, "kubectl get deployment web -o yaml").unwrap(),
        before
    );
    let pdb = run(&mut c, "kubectl create pdb --help").unwrap();
    assert!(pdb.contains("--min-available=''"), "{pdb}");
    assert!(
        run(&mut c, "kubectl help frobnicate")
            .unwrap()
            .starts_with("Unknown help topic [`frobnicate`]\n")
    );
}

/// Tab after a `-` offers the flags the subcommand (or verb) takes.
#[test]
fn completion_offers_a_commands_flags() {
    let names = Names::default();
    let (line, hits) = complete("kubectl get --show-", &names);
    assert_eq!(hits, ["--show-kind", "--show-labels"]);
    assert_eq!(line, "kubectl get --show-");
    let (line, _) = complete("kubectl rollout undo --to", &names);
    assert_eq!(line, "kubectl rollout undo --to-revision ");
    let (_, hits) = complete("kubectl rollout status -", &names);
    assert!(
        hits.contains(&"-w".to_string()) && hits.contains(&"--namespace".to_string()),
        "{hits:?}"
    );
    assert!(!hits.iter().any(|h| h == "--to-revision"), "{hits:?}");
}

/// `create`'s subcommands are rows, with kubectl's aliases.
#[test]
fn creates_subcommands_are_rows_with_their_aliases() {
    let mut c = cluster();
    assert_eq!(
        run(&mut c, "kubectl create deploy shop --image=nginx -r 3").unwrap(),
        "deployment.apps/shop created"
    );
    assert_eq!(
        run(&mut c, "kubectl create ns prod").unwrap(),
        "namespace/prod created"
    );
    let e = run(&mut c, "kubectl create deployment shop2 --min-available=1").unwrap_err();
    assert_eq!(e.to_string(), "error: unknown flag: --min-available");
    assert_eq!(
        parse("kubectl create pdb x").unwrap().sub(),
        Some("poddisruptionbudget")
    );
}
