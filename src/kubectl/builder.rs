//! kubectl's resource builder (k8s.io/cli-runtime v0.36.2 `pkg/resource/builder.go`) for the
//! kinds the playground serves: which objects a command's arguments, `-l/--selector` and
//! `--all` name, in the builder's order of checks and with its errors. Every verb that takes
//! objects reads them here, so `kubectl label pods a b`, `rollout pause deployment -l app=web`
//! and `delete deploy,rs web` mean what they mean to kubectl.

use super::KubectlError;
use super::args::{Args, parse_selector};
use super::fields::FieldSelector;
use super::not_found;
use super::resource::Resource;
use crate::api::*;
use crate::cluster::Cluster;

/// One object the builder found (`resource.Info`): its resource, name, store key and the
/// object as read.
#[derive(Clone, Debug)]
pub(super) struct Info {
    pub(super) res: Resource,
    pub(super) name: String,
    pub(super) key: String,
    pub(super) object: Object,
}

impl Info {
    /// `TYPE/NAME` as kubectl's name printer writes it (`deployment.apps/web`).
    pub(super) fn object_name(&self) -> String {
        format!("{}/{}", self.res.prefix(), self.name)
    }
}

/// What the builder visits: each object found, or the error for one it could not get (the
/// builder goes on past it: `ContinueOnError`). `single` is the builder's
/// `singleItemImplied`: one name, or one `TYPE/NAME`.
pub(super) struct Visit {
    pub(super) items: Vec<Result<Info, KubectlError>>,
    pub(super) single: bool,
}

/// How a verb's builder is set up: `ResourceTypeOrNameArgs(allow_empty_selector, …)` (a bare
/// type means every object of it), and whether `--all` goes through `SelectAllParam`
/// (delete) or is the `allow_empty_selector` itself (label, annotate, set).
#[derive(Clone, Copy, Default)]
pub(super) struct Setup {
    pub(super) allow_empty_selector: bool,
    pub(super) select_all: bool,
}

/// The objects `args` (the positionals naming resources) select in the command's namespace.
/// `Err` is the builder's own refusal (nothing visited); a name that is not there is an item's
/// error.
pub(super) fn visit(
    c: &Cluster,
    a: &Args,
    args: &[String],
    setup: Setup,
) -> Result<Visit, KubectlError> {
    let mut b = Builder::default();
    if let Some(Some(sel)) = a.flag("selector") {
        let sel = sel.trim();
        if !sel.is_empty() {
            b.selector = Some(sel.to_string());
        }
    }
    if let Some(Some(sel)) = a.flag("field-selector") {
        let sel = sel.trim();
        if !sel.is_empty() {
            b.fields = Some(sel.to_string());
        }
    }
    if setup.select_all {
        if b.selector.is_some() || b.fields.is_some() {
            b.errs
                .push("setting 'all' parameter but found a non empty selector. ".into());
        }
        b.select_all = true;
    }
    b.type_or_name_args(setup.allow_empty_selector, args);
    // `-A`, where a verb takes it (get): every namespace.
    let every = a.flag("all-namespaces").is_some();
    b.result(c, (!every).then(|| a.ns()))
}

#[derive(Default)]
struct Builder {
    errs: Vec<String>,
    selector: Option<String>,
    fields: Option<String>,
    select_all: bool,
    resources: Vec<String>,
    names: Vec<String>,
    tuples: Vec<(String, String)>,
}

impl Builder {
    /// `ResourceTypeOrNameArgs`: `TYPE[,TYPE…] [NAME…]` or `TYPE/NAME…`.
    fn type_or_name_args(&mut self, allow_empty_selector: bool, args: &[String]) {
        let args = normalize(args);
        let slashed = args.iter().filter(|s| s.contains('/')).count();
        if slashed > 0 {
            if slashed != args.len() {
                self.errs.push(MIXED.into());
                return;
            }
            for s in &args {
                let parts: Vec<&str> = s.split('/').collect();
                if parts.len() != 2 {
                    self.errs.push(
                        "arguments in resource/name form may not have more than one slash".into(),
                    );
                    return;
                }
                let (r, n) = (parts[0], parts[1]);
                if r.is_empty() || n.is_empty() || split_types(r).len() != 1 {
                    self.errs.push(
                        "arguments in resource/name form must have a single resource and name"
                            .into(),
                    );
                    return;
                }
                self.tuples.push((r.to_string(), n.to_string()));
            }
            return;
        }
        let Some(first) = args.first() else {
            return;
        };
        self.resources = split_types(first);
        self.names.extend(args[1..].iter().cloned());
        if args.len() == 1 && self.selector.is_none() && allow_empty_selector {
            self.selector = Some(String::new());
        }
    }

    /// `visitorResult`: selectors first, then `TYPE/NAME`s, then names, as the builder checks.
    /// `ns` is the namespace, or none for every namespace. (Long: one branch per way of naming
    /// objects, each with the builder's checks in its order.)
    fn result(self, c: &Cluster, ns: Option<&str>) -> Result<Visit, KubectlError> {
        if !self.errs.is_empty() {
            return Err(go(self.errs.join(", ")));
        }
        let selector = if self.select_all {
            Some(String::new())
        } else {
            self.selector.clone()
        };
        if selector.is_some() || self.fields.is_some() {
            let sel = selector.unwrap_or_default();
            if !self.names.is_empty() {
                return Err(go("name cannot be provided when a selector is specified"));
            }
            if !self.tuples.is_empty() {
                return Err(go(
                    "selectors and the all flag cannot be used when passing resource/name arguments",
                ));
            }
            if self.resources.is_empty() {
                return Err(go(
                    "at least one resource must be specified to use a selector",
                ));
            }
            let types = mappings(&self.resources)?;
            let labels = parse_selector(&sel).map_err(KubectlError::Client)?;
            let fields = FieldSelector::parse(self.fields.as_deref().unwrap_or(""))?;
            let mut items = vec![];
            for res in types {
                let keep = fields.for_objects(res, &sel)?;
                items.extend(
                    c.store
                        .list(res.kind())
                        .filter(|o| {
                            (!res.kind().namespaced()
                                || ns.is_none_or(|ns| o.meta().namespace == ns))
                                && labels.matches(&o.meta().labels)
                                && keep(o)
                        })
                        .map(|o| Ok(info(res, o))),
                );
            }
            return Ok(Visit {
                items,
                single: false,
            });
        }
        if !self.tuples.is_empty() {
            if !self.resources.is_empty() {
                return Err(go(
                    "you may not specify individual resources and bulk resources in the same call",
                ));
            }
            let Some(ns) = ns else {
                return Err(go(
                    "a resource cannot be retrieved by name across all namespaces",
                ));
            };
            let mut wanted = vec![];
            for (r, n) in &self.tuples {
                wanted.push((mapping(r)?, n.clone()));
            }
            return Ok(Visit {
                single: wanted.len() == 1,
                items: wanted.into_iter().map(|(r, n)| get(c, ns, r, &n)).collect(),
            });
        }
        if !self.names.is_empty() {
            if self.resources.is_empty() {
                return Err(go(
                    "you must provide a resource and a resource name together",
                ));
            }
            if self.resources.len() > 1 {
                return Err(go("you must specify only one resource"));
            }
            let res = mapping(&self.resources[0])?;
            let Some(ns) = ns else {
                return Err(go(
                    "a resource cannot be retrieved by name across all namespaces",
                ));
            };
            return Ok(Visit {
                single: self.names.len() == 1,
                items: self.names.iter().map(|n| get(c, ns, res, n)).collect(),
            });
        }
        if !self.resources.is_empty() {
            mappings(&self.resources)?;
            return Err(go("resource(s) were provided, but no name was specified"));
        }
        Err(go(MISSING))
    }
}

fn info(res: Resource, o: &Object) -> Info {
    Info {
        res,
        name: o.meta().name.to_string(),
        key: o.meta().key().to_string(),
        object: o.clone(),
    }
}

fn get(c: &Cluster, ns: &str, res: Resource, name: &str) -> Result<Info, KubectlError> {
    // A cluster-scoped object (a Node) is in no namespace, whichever the command names.
    let ns = if res.kind().namespaced() { ns } else { "" };
    c.store
        .get(res.kind(), &format!("{ns}/{name}"))
        .map(|o| info(res, o))
        .ok_or_else(|| not_found(res.kind(), name))
}

/// `normalizeMultipleResourcesArgs`: `a,b x y` is `a/x a/y b/x b/y`.
fn normalize(args: &[String]) -> Vec<String> {
    if args.len() >= 2 {
        let types = split_types(&args[0]);
        if types.len() > 1 {
            return types
                .iter()
                .flat_map(|t| args[1..].iter().map(move |n| format!("{t}/{n}")))
                .collect();
        }
    }
    args.to_vec()
}

/// `SplitResourceArgument`: the comma-separated types, each once.
fn split_types(arg: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for s in arg.split(',') {
        if !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    }
    out
}

fn mapping(r: &str) -> Result<Resource, KubectlError> {
    Resource::parse(r).ok_or_else(|| {
        go(format!(
            "the server doesn't have a resource type \"{}\"",
            r.to_ascii_lowercase()
        ))
    })
}

fn mappings(rs: &[String]) -> Result<Vec<Resource>, KubectlError> {
    let mut out = vec![];
    for r in rs {
        let res = mapping(r)?;
        if !out.contains(&res) {
            out.push(res);
        }
    }
    Ok(out)
}

/// A Go error as kubectl's `CheckErr` prints it alone (`error: …`).
fn go(message: impl Into<String>) -> KubectlError {
    KubectlError::Go(message.into())
}

/// The resource builder's refusal of a bare type beside `TYPE/NAME` arguments
/// (`hasCombinedTypeArgs`; its parenthesis is never closed).
pub(super) const MIXED: &str = "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'";

/// The builder's `missingResourceError`.
const MISSING: &str = "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/// What a command that visits several objects leaves: the lines it printed, the errors of the
/// objects it could not change (printed after, as kubectl's aggregate is), and whether it
/// wrote anything.
#[derive(Default)]
pub(super) struct Report {
    /// What kubectl logs before any object (a deprecation warning).
    pub(super) warnings: Vec<String>,
    pub(super) out: Vec<String>,
    pub(super) errs: Vec<KubectlError>,
    pub(super) wrote: bool,
}

impl Report {
    pub(super) fn err(&mut self, e: KubectlError) {
        self.errs.push(e);
    }
    /// Records an item's result: its line or its error.
    pub(super) fn item(&mut self, r: Result<String, KubectlError>) {
        match r {
            Ok(s) if s.is_empty() => {}
            Ok(s) => self.out.push(s),
            Err(e) => self.errs.push(e),
        }
    }
    /// What the command printed: `Ok` when it printed or wrote something (errors after its
    /// lines, each as kubectl prints an aggregate); `Err` when it only failed.
    pub(super) fn finish(mut self) -> Result<String, KubectlError> {
        let mut out = std::mem::take(&mut self.warnings);
        if self.errs.is_empty() {
            out.append(&mut self.out);
            return Ok(out.join("\n"));
        }
        let err = if self.errs.len() == 1 {
            self.errs.swap_remove(0)
        } else {
            KubectlError::Many(self.errs)
        };
        if self.out.is_empty() && !self.wrote {
            return Err(err);
        }
        out.append(&mut self.out);
        out.push(err.to_string());
        Ok(out.join("\n"))
    }
}
