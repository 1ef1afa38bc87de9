//! Share links: a whole scenario (manifests, steps, world) and the position on the timeline in a
//! URL fragment. Format `v2.` + base64url(raw deflate(JSON {"scenario": YAML text, "step": N,
//! "kubernetes": "1.37"})): the release the run reproduced travels with it, so a link opens
//! on it whatever the page's default has become since. `v1.` links (the same without the
//! release) and `v0.` links (base64url of the plain scenario YAML, the first format) still
//! open, on the release that was the default when they were made unless they name one: each
//! older version decodes into the current [`Shared`]. Decoding never panics and never inflates more
//! than [`MAX_DECODED_BYTES`].

use super::{Scenario, Step, Until};
use crate::api::{Map, Value};
use base64::Engine;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde_json::json;

/// The most bytes a link may decompress to (a typical scenario is 1–3 KB).
pub const MAX_DECODED_BYTES: usize = 256 * 1024;
/// The longest fragment we try to decode at all.
pub const MAX_LINK_CHARS: usize = 64 * 1024;
pub const CURRENT: &str = "v2";
/// The release v0 and v1 links ran on when their scenario named none (the default then; they
/// could name no later one).
const V1_DEFAULT: crate::controller::release::Release =
    crate::controller::release::Release { minor: 36 };

#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    pub scenario: Scenario,
    /// The timeline position (a trace step index).
    pub step: usize,
}

/// base64url without padding (RFC 4648 §5); a padded link, as some tools make, reads too.
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

fn unbase64(data: &str) -> Result<Vec<u8>, String> {
    BASE64URL.decode(data).map_err(|e| match e {
        base64::DecodeError::InvalidByte(i, c) => format!(
            "the link is damaged: character {:?} at position {i} is not base64url",
            c as char
        ),
        _ => "the link is damaged or cut short: it is not whole base64url".to_string(),
    })
}

fn ms(at: u64) -> Value {
    if at.is_multiple_of(1000) {
        Value::String(format!("{}s", at / 1000))
    } else {
        Value::String(format!("{at}ms"))
    }
}

impl Scenario {
    /// The scenario as a scenario file (what [`Scenario::parse`] reads back to an equal value).
    pub fn to_yaml(&self) -> String {
        let mut m = Map::new();
        m.insert("name".into(), self.name.clone().into());
        if !self.description.is_empty() {
            m.insert("description".into(), self.description.clone().into());
        }
        let world = crate::api::codec::to_value(&self.world);
        let default = crate::api::codec::to_value(&crate::cluster::kubelet::World::default());
        if let (Value::Object(w), Value::Object(d)) = (world, default) {
            let changed: Map = w.into_iter().filter(|(k, v)| d.get(k) != Some(v)).collect();
            if !changed.is_empty() {
                m.insert("world".into(), Value::Object(changed));
            }
        }
        m.insert(
            "objects".into(),
            Value::Array(
                self.objects
                    .iter()
                    .map(|o| Value::String(o.clone()))
                    .collect(),
            ),
        );
        if !self.steps.is_empty() {
            let steps = self
                .steps
                .iter()
                .map(|s: &Step| {
                    let mut o = Map::new();
                    o.insert("at".into(), ms(s.at_ms));
                    if let Some(r) = &s.run {
                        o.insert("run".into(), r.clone().into());
                    }
                    if let Some(c) = &s.caption {
                        o.insert("caption".into(), c.clone().into());
                    }
                    if let Some(w) = &s.world {
                        o.insert("world".into(), crate::api::codec::to_value(w));
                    }
                    Value::Object(o)
                })
                .collect();
            m.insert("steps".into(), Value::Array(steps));
        }
        if let Until::At(t) = self.until {
            m.insert("until".into(), ms(t));
        }
        if let Some(f) = &self.focus {
            m.insert("focus".into(), f.clone().into());
        }
        if !self.variants.is_empty() {
            m.insert(
                "variants".into(),
                super::variant::variants_value(&self.variants),
            );
        }
        crate::api::yaml::to_editor_yaml(&Value::Object(m))
    }
}

/// The fragment (without `#`) for a scenario at a step.
pub fn encode(scenario: &Scenario, step: usize) -> String {
    let payload = json!({
        "scenario": scenario.to_yaml(),
        "step": step,
        "kubernetes": scenario.world.kubernetes,
    })
    .to_string();
    let packed = miniz_oxide::deflate::compress_to_vec(payload.as_bytes(), 9);
    format!("{CURRENT}.{}", BASE64URL.encode(packed))
}

fn inflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(bytes, MAX_DECODED_BYTES).map_err(
        |e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                format!("the link decodes to more than {MAX_DECODED_BYTES} bytes: refused")
            }
            _ => "the link is damaged or cut short: its data does not decompress".to_string(),
        },
    )
}

fn scenario_text(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|_| "the link is damaged: its text is not UTF-8".to_string())
}

/// What a host page or a paste hands over: a share link (`v1.…`, `#v0.…`) or a scenario file.
/// Returns the scenario and the step to show.
pub fn open(text: &str) -> Result<(Scenario, usize), String> {
    let t = text.trim_start();
    if ["v2.", "v1.", "v0.", "#v"].iter().any(|p| t.starts_with(p)) {
        decode(t).map(|s| (s.scenario, s.step))
    } else {
        Scenario::parse(text)
            .map(|s| (s, 0))
            .map_err(|e| e.to_string())
    }
}

/// Reads a fragment (with or without `#`). Errors say what is wrong with the link.
pub fn decode(fragment: &str) -> Result<Shared, String> {
    let f = fragment.trim().trim_start_matches('#');
    if f.len() > MAX_LINK_CHARS {
        return Err(format!(
            "the link is longer than {MAX_LINK_CHARS} characters: refused"
        ));
    }
    let Some((version, data)) = f.split_once('.') else {
        return Err("this is not a playground link (expected e.g. #v1.…)".into());
    };
    let (text, step, release) = match version {
        // v0: the first format, the scenario YAML itself, base64url, position 0.
        "v0" => {
            let bytes = unbase64(data)?;
            if bytes.len() > MAX_DECODED_BYTES {
                return Err(format!(
                    "the link decodes to more than {MAX_DECODED_BYTES} bytes: refused"
                ));
            }
            (scenario_text(bytes)?, 0, None)
        }
        "v1" | "v2" => {
            let json = scenario_text(inflate(&unbase64(data)?)?)?;
            let v: Value = serde_json::from_str(&json).map_err(|_| {
                "the link is damaged: its data is not the expected JSON".to_string()
            })?;
            let text = v
                .get("scenario")
                .and_then(Value::as_str)
                .ok_or("the link is damaged: it carries no scenario")?
                .to_string();
            let step = v.get("step").and_then(Value::as_u64).unwrap_or(0) as usize;
            // A v2 link always names its release: one without is refused, as "".
            let release = (version == "v2")
                .then(|| {
                    v.get("kubernetes")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                })
                .map(crate::controller::release::Release::parse)
                .transpose()
                .map_err(|e| format!("the link's Kubernetes release: {e}"))?;
            (text, step, release)
        }
        other => {
            return Err(format!(
                "this link was made by a newer or unknown version of the playground ({other:?}); this page reads v0, v1 and v2"
            ));
        }
    };
    let mut scenario = Scenario::parse(&text).map_err(|e| format!("the linked scenario: {e}"))?;
    scenario.world.kubernetes = match release {
        Some(r) => r,
        None => scenario.world.kubernetes.min(V1_DEFAULT),
    };
    Ok(Shared { scenario, step })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::release::Release;
    use crate::scenario::gallery::GALLERY;
    use proptest::prelude::*;

    #[test]
    fn every_gallery_scenario_round_trips_through_a_link() {
        for (name, text) in GALLERY {
            let s = Scenario::parse(text).unwrap();
            assert_eq!(Scenario::parse(&s.to_yaml()).unwrap(), s, "{name}: to_yaml");
            let link = encode(&s, 7);
            let back = decode(&format!("#{link}")).unwrap();
            assert_eq!(back.scenario, s, "{name}");
            assert_eq!(back.step, 7);
            // A state pasted from a cluster carries every field its apiserver printed (18
            // objects here): it stays shareable, in a link a chat or a docs page still takes.
            let limit = if *name == "pasted-mid-rollout" {
                8 * 1024
            } else {
                2000
            };
            assert!(
                link.len() < limit,
                "{name}: link is {} characters",
                link.len()
            );
        }
    }

    #[test]
    fn a_host_page_may_hand_over_a_link_or_a_scenario_file() {
        let text = GALLERY[0].1;
        let s = Scenario::parse(text).unwrap();
        assert_eq!(open(text).unwrap(), (s.clone(), 0));
        assert_eq!(open(&encode(&s, 4)).unwrap(), (s.clone(), 4));
        assert_eq!(open(&format!("  #{}", encode(&s, 2))).unwrap().1, 2);
        assert!(open("v1.@@").unwrap_err().contains("damaged"));
        assert!(open("name: x\nsteps: 3").unwrap_err().contains("steps"));
    }

    #[test]
    fn v0_links_still_open() {
        let text = GALLERY[0].1;
        let link = format!("v0.{}", BASE64URL.encode(text.as_bytes()));
        let s = decode(&link).unwrap();
        let mut then = Scenario::parse(text).unwrap();
        then.world.kubernetes = V1_DEFAULT;
        assert_eq!(s.scenario, then, "the default release when it was made");
        assert_eq!(s.step, 0);
    }

    #[test]
    fn a_link_carries_its_release_and_an_older_one_opens_on_the_default_it_was_made_with() {
        let mut s = Scenario::parse(GALLERY[0].1).unwrap();
        assert_eq!(
            decode(&encode(&s, 0)).unwrap().scenario.world.kubernetes,
            Release::NEWEST
        );
        s.world.kubernetes = Release { minor: 33 };
        assert_eq!(decode(&encode(&s, 0)).unwrap().scenario, s);
        // A v1 link naming its release keeps it; one naming none ran on 1.36.
        let v1 = |text: &str| {
            let json = json!({ "scenario": text, "step": 0 }).to_string();
            let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
            format!("v1.{}", BASE64URL.encode(packed))
        };
        let named = v1(&s.to_yaml());
        assert_eq!(decode(&named).unwrap().scenario.world.kubernetes.minor, 33);
        let plain = v1(GALLERY[0].1);
        assert_eq!(decode(&plain).unwrap().scenario.world.kubernetes.minor, 36);
        // A v2 link from a page that reproduces a release this one does not.
        let v2 = |json: Value| {
            let packed = miniz_oxide::deflate::compress_to_vec(json.to_string().as_bytes(), 9);
            decode(&format!("v2.{}", BASE64URL.encode(packed)))
        };
        let e =
            v2(json!({ "scenario": GALLERY[0].1, "step": 0, "kubernetes": "1.99" })).unwrap_err();
        assert!(
            e.starts_with("the link's Kubernetes release: \"1.99\" is not a release"),
            "{e}"
        );
        // A v2 link names its release (one without was cut by hand).
        let e = v2(json!({ "scenario": GALLERY[0].1, "step": 0 })).unwrap_err();
        assert!(
            e.starts_with("the link's Kubernetes release: \"\" is not a release"),
            "{e}"
        );
    }

    #[test]
    fn bad_links_say_what_is_wrong() {
        let good = encode(&Scenario::parse(GALLERY[0].1).unwrap(), 0);
        let cut = &good[..good.len() / 2];
        assert!(decode(cut).unwrap_err().contains("damaged"));
        assert!(decode("v9.abc").unwrap_err().contains("v9"));
        assert!(
            decode("hello")
                .unwrap_err()
                .contains("not a playground link")
        );
        assert!(decode("v1.@@@").unwrap_err().contains("position 0"));
    }

    #[test]
    fn the_decoded_size_is_capped() {
        // A deflate bomb: 10 MB of one byte compresses to a few KB.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b'a'; 10 << 20], 9);
        let link = format!("v1.{}", BASE64URL.encode(&bomb));
        assert!(link.len() < MAX_LINK_CHARS);
        assert!(decode(&link).unwrap_err().contains("more than"));
        let big = format!(
            "v0.{}",
            BASE64URL.encode(vec![b'a'; MAX_DECODED_BYTES + 10])
        );
        assert!(decode(&big).is_err());
    }

    #[test]
    fn the_docs_example_embeds_the_current_gallery_scenarios() {
        let page = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/www/docs-example.html"
        ))
        .unwrap();
        for (id, name) in [
            ("rolling", "rolling-update"),
            ("proportional", "proportional-scaling"),
        ] {
            let marker = format!("id=\"{id}\" data-fragment=\"");
            let start = page.find(&marker).expect("the example is on the page") + marker.len();
            let fragment = &page[start..start + page[start..].find('"').unwrap()];
            let text = GALLERY.iter().find(|(n, _)| *n == name).unwrap().1;
            assert_eq!(
                decode(fragment).unwrap().scenario,
                Scenario::parse(text).unwrap(),
                "www/docs-example.html embeds an old {name}: regenerate with `rollout share scenarios/{name}.yaml`"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn random_bytes_never_panic(s in "\\PC{0,200}") {
            let _ = decode(&s);
            let _ = decode(&format!("v1.{s}"));
            let _ = decode(&format!("v0.{s}"));
        }

        #[test]
        fn mutated_links_never_panic(i in 0usize..4000, c in 0u8..64, cut in 0usize..4000) {
            let good = encode(&Scenario::parse(GALLERY[4].1).unwrap(), 3);
            let mut b = good.into_bytes();
            let i = 3 + i % (b.len() - 3);
            b[i] = alphabet::URL_SAFE.as_str().as_bytes()[c as usize];
            let s = String::from_utf8(b).unwrap();
            let _ = decode(&s);
            let _ = decode(&s[..cut.min(s.len())]);
        }
    }
}

/// How much of the page to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controls {
    None,
    Minimal,
    Full,
}

/// Which side panel an embed shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    Branch,
    Events,
    /// The rollout chart and summary.
    Chart,
    None,
}

/// The page's URL parameters (`?embed&autoplay&readonly&theme=dark&controls=minimal&step=3&until=40&panel=branch`).
#[derive(Clone, Debug, PartialEq)]
pub struct ViewOptions {
    pub embed: bool,
    pub autoplay: bool,
    pub readonly: bool,
    /// `Some(true)` dark, `Some(false)` light, `None` the reader's preference.
    pub dark: Option<bool>,
    pub controls: Controls,
    pub step: Option<usize>,
    pub until: Option<usize>,
    pub panel: Panel,
    /// The rollout chart under the cluster view (`chart`).
    pub chart: bool,
    /// Predict mode (`predict`): the reader answers before each sync that changes something.
    pub predict: bool,
    /// Parameters that were not understood (reported, never fatal).
    pub ignored: Vec<String>,
    /// Not a URL parameter: the still picture an element's button shows (`preview`), a gallery
    /// example's own (`previews/NAME.svg`, made at build time) when the embed opens at its
    /// first step.
    pub preview: Option<String>,
    /// Not a URL parameter either: the run recorded at build time that an element plays from
    /// the click until the playground is ready (`film`), a gallery example's own
    /// (`previews/NAME.film.svg`).
    pub film: Option<String>,
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            embed: false,
            autoplay: false,
            readonly: false,
            dark: None,
            controls: Controls::Full,
            step: None,
            until: None,
            panel: Panel::Branch,
            chart: false,
            predict: false,
            ignored: vec![],
            preview: None,
            film: None,
        }
    }
}

/// A step as the URL counts it (from 1), as an index.
fn step_index(v: &str) -> Option<usize> {
    v.parse::<usize>().ok().filter(|n| *n >= 1).map(|n| n - 1)
}

impl ViewOptions {
    /// Reads a query string (with or without `?`). A flag may be bare or `=1|true|0|false`.
    pub fn from_query(query: &str) -> ViewOptions {
        let mut o = ViewOptions::default();
        for pair in query
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
        {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let flag = !matches!(v, "0" | "false" | "no");
            let ok = match k {
                "embed" => {
                    o.embed = flag;
                    true
                }
                "autoplay" => {
                    o.autoplay = flag;
                    true
                }
                "readonly" => {
                    o.readonly = flag;
                    true
                }
                "chart" => {
                    o.chart = flag;
                    true
                }
                "predict" => {
                    o.predict = flag;
                    true
                }
                "theme" => match v {
                    "dark" => {
                        o.dark = Some(true);
                        true
                    }
                    "light" => {
                        o.dark = Some(false);
                        true
                    }
                    _ => false,
                },
                "controls" => match v {
                    "none" => {
                        o.controls = Controls::None;
                        true
                    }
                    "minimal" => {
                        o.controls = Controls::Minimal;
                        true
                    }
                    "full" => {
                        o.controls = Controls::Full;
                        true
                    }
                    _ => false,
                },
                "panel" => match v {
                    "branch" => {
                        o.panel = Panel::Branch;
                        true
                    }
                    "events" => {
                        o.panel = Panel::Events;
                        true
                    }
                    "chart" => {
                        o.panel = Panel::Chart;
                        true
                    }
                    "none" => {
                        o.panel = Panel::None;
                        true
                    }
                    _ => false,
                },
                // Steps count from 1, as the page shows them.
                "step" => step_index(v).map(|i| o.step = Some(i)).is_some(),
                "until" => step_index(v).map(|i| o.until = Some(i)).is_some(),
                _ => false,
            };
            if !ok {
                o.ignored.push(pair.to_string());
            }
        }
        // A range that ends before it starts holds no step: `until` is refused, with why.
        if let (Some(from), Some(until)) = (o.step, o.until)
            && until < from
        {
            o.ignored.push(format!(
                "until={} (it is before step={}: the range would hold no step)",
                until + 1,
                from + 1
            ));
            o.until = None;
        }
        o
    }

    /// A step as the Embed dialog's field holds it: empty is no step, else a whole number from
    /// 1 (`what` names the field in the refusal).
    pub fn step_field(what: &str, text: &str) -> Result<Option<usize>, String> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        step_index(text)
            .map(Some)
            .ok_or_else(|| format!("{what} step must be a whole number from 1, not \"{text}\"."))
    }

    /// Why this view's step range cannot hold, if it cannot (the Embed dialog's note): `until`
    /// before `step`, or either past the run's `steps`.
    pub fn range_problem(&self, steps: usize) -> Option<String> {
        let past = |what: &str, i: usize| {
            format!(
                "{what} step {} is past the run's last step, {steps}.",
                i + 1
            )
        };
        match (self.step, self.until) {
            (Some(from), Some(until)) if until < from => Some(format!(
                "Until step {} is before from step {}: the range would hold no step.",
                until + 1,
                from + 1
            )),
            (Some(from), _) if from >= steps => Some(past("From", from)),
            (_, Some(until)) if until >= steps => Some(past("Until", until)),
            _ => None,
        }
    }
}

impl ViewOptions {
    /// The query string that opens this view (what the Embed dialog puts in its snippet);
    /// `from_query` reads it back to the same options.
    pub fn to_query(&self) -> String {
        let mut q = vec![];
        if self.embed {
            q.push("embed".to_string());
        }
        if self.autoplay {
            q.push("autoplay".into());
        }
        if self.readonly {
            q.push("readonly".into());
        }
        match self.dark {
            Some(true) => q.push("theme=dark".into()),
            Some(false) => q.push("theme=light".into()),
            None => {}
        }
        q.push(
            match self.controls {
                Controls::None => "controls=none",
                Controls::Minimal => "controls=minimal",
                Controls::Full => "controls=full",
            }
            .into(),
        );
        q.push(
            match self.panel {
                Panel::Branch => "panel=branch",
                Panel::Events => "panel=events",
                Panel::Chart => "panel=chart",
                Panel::None => "panel=none",
            }
            .into(),
        );
        if self.chart {
            q.push("chart".into());
        }
        if self.predict {
            q.push("predict".into());
        }
        if let Some(s) = self.step {
            q.push(format!("step={}", s + 1));
        }
        if let Some(u) = self.until {
            q.push(format!("until={}", u + 1));
        }
        q.join("&")
    }
}

/// The snippet the Embed dialog gives: the iframe at a sensible height, and a few lines of
/// script that keep it as tall as its content (the embed posts its height); without the
/// script the frame still works at that height.
pub fn iframe_snippet(base: &str, fragment: &str, view: &ViewOptions, title: &str) -> String {
    let title = title
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    format!(
        "<iframe src=\"{}?{}#{fragment}\" title=\"Rollout Playground: {title}\" data-playground-version=\"{VERSION}\" style=\"width:100%;height:640px;border:1px solid #d9dee6;border-radius:8px\" loading=\"lazy\"></iframe>\n<script>addEventListener(\"message\",function(e){{var d=e.data;if(!d||d.source!==\"rollout-playground\"||d.type!==\"height\")return;document.querySelectorAll(\"iframe\").forEach(function(f){{if(f.contentWindow===e.source)f.style.height=d.height+\"px\"}})}})</script>",
        pinned_base(base),
        view.to_query()
    )
}

/// The forms the Embed dialog gives a snippet in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnippetForm {
    /// The `<rollout-playground>` element with its module, for a page written in HTML.
    Element,
    /// The Hugo shortcode (`embed/hugo/rollout-playground`).
    Hugo,
    /// The element in MDX (Docusaurus, VitePress), its module loaded by the site's config.
    Mdx,
    /// A plain iframe and the script that sizes it.
    Iframe,
}

impl SnippetForm {
    pub const ALL: [SnippetForm; 4] = [
        SnippetForm::Element,
        SnippetForm::Hugo,
        SnippetForm::Mdx,
        SnippetForm::Iframe,
    ];

    pub fn label(self) -> &'static str {
        match self {
            SnippetForm::Element => "HTML element",
            SnippetForm::Hugo => "Hugo shortcode",
            SnippetForm::Mdx => "MDX (Docusaurus, VitePress)",
            SnippetForm::Iframe => "plain iframe",
        }
    }
}

/// This playground's release, which a snippet names (`version`) so that a docs site's CI can
/// say which release an embed was written against (`rollout verify-embeds`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The address a snippet names: a playground served from `…/latest/` (`scripts/publish.sh`
/// lays releases out as `…/VERSION/` and `…/latest/`) is pinned to this release's own path,
/// so a page written today keeps today's playground when a newer one is published.
pub fn pinned_base(base: &str) -> String {
    match base.strip_suffix("/latest/") {
        Some(root) => format!("{root}/{VERSION}/"),
        None => base.to_string(),
    }
}

/// The `<rollout-playground>` element's attributes for this view: `src` (the playground with
/// the share fragment), the options the iframe's address would carry, `loading="click"` and a
/// title. Flags are `"true"`, which every form can write.
pub fn element_attributes(
    base: &str,
    fragment: &str,
    view: &ViewOptions,
    title: &str,
) -> Vec<(&'static str, String)> {
    let base = pinned_base(base);
    let mut a = vec![
        ("src", format!("{base}#{fragment}")),
        ("version", VERSION.to_string()),
    ];
    for (on, name) in [
        (view.autoplay, "autoplay"),
        (view.readonly, "readonly"),
        (view.chart, "chart"),
        (view.predict, "predict"),
    ] {
        if on {
            a.push((name, "true".into()));
        }
    }
    if let Some(dark) = view.dark {
        a.push(("theme", if dark { "dark" } else { "light" }.into()));
    }
    for pair in view.to_query().split('&') {
        if let Some((k @ ("controls" | "panel" | "step" | "until"), v)) = pair.split_once('=') {
            let name = match k {
                "controls" => "controls",
                "panel" => "panel",
                "step" => "step",
                _ => "until",
            };
            a.push((name, v.to_string()));
        }
    }
    if let Some(p) = &view.preview {
        a.push(("preview", p.clone()));
    }
    if let Some(f) = &view.film {
        a.push(("film", f.clone()));
    }
    a.push(("loading", "click".into()));
    a.push(("title", format!("Rollout Playground: {title}")));
    a
}

/// The Embed dialog's snippet in `form`.
pub fn snippet(
    form: SnippetForm,
    base: &str,
    fragment: &str,
    view: &ViewOptions,
    title: &str,
) -> String {
    let attr = |v: &str| {
        v.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
    };
    let attrs = || {
        element_attributes(base, fragment, view, title)
            .into_iter()
            .map(|(k, v)| format!(" {k}=\"{}\"", attr(&v)))
            .collect::<String>()
    };
    match form {
        SnippetForm::Element => format!(
            "<script src=\"{}rollout-playground.js\"></script>\n<rollout-playground{}></rollout-playground>",
            pinned_base(base),
            attrs()
        ),
        // A shortcode's values are Go strings: a quote inside is escaped with a backslash.
        SnippetForm::Hugo => format!(
            "{{{{< rollout-playground{} >}}}}",
            element_attributes(base, fragment, view, title)
                .into_iter()
                .map(|(k, v)| format!(" {k}=\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\"")))
                .collect::<String>()
        ),
        SnippetForm::Mdx => format!(
            "{{/* Load {}rollout-playground.js once, as a plain script in the head (not async, not a module), in the site's config. */}}\n<rollout-playground{}></rollout-playground>",
            pinned_base(base),
            attrs()
        ),
        SnippetForm::Iframe => iframe_snippet(base, fragment, view, title),
    }
}

#[cfg(test)]
mod view_tests {
    use super::*;

    #[test]
    fn a_view_reads_back_from_its_query() {
        let mut o = ViewOptions::from_query(
            "embed&autoplay&theme=light&controls=minimal&panel=events&step=2&until=30",
        );
        assert!(o.ignored.is_empty());
        assert_eq!(ViewOptions::from_query(&o.to_query()), o);
        o.readonly = true;
        o.dark = None;
        o.step = None;
        assert_eq!(ViewOptions::from_query(&o.to_query()), o);
        let snippet = iframe_snippet("https://x.example/", "v1.abc", &o, "web \"1\" &quot;<");
        assert!(snippet.starts_with("<iframe src=\"https://x.example/?embed&autoplay&readonly&controls=minimal&panel=events&until=30#v1.abc\" title=\"Rollout Playground: web &quot;1&quot; &amp;quot;&lt;\""), "{snippet}");
        assert!(snippet.contains("d.type!==\"height\""));
    }

    #[test]
    fn the_dialog_gives_the_element_in_html_hugo_and_mdx() {
        let o = ViewOptions::from_query("embed&autoplay&theme=dark&controls=minimal&step=3");
        let html = snippet(
            SnippetForm::Element,
            "https://x.example/play/",
            "v1.abc",
            &o,
            "web \"1\"",
        );
        assert_eq!(
            html,
            format!(
                "<script src=\"https://x.example/play/rollout-playground.js\"></script>\n<rollout-playground src=\"https://x.example/play/#v1.abc\" version=\"{VERSION}\" autoplay=\"true\" theme=\"dark\" controls=\"minimal\" panel=\"branch\" step=\"3\" loading=\"click\" title=\"Rollout Playground: web &quot;1&quot;\"></rollout-playground>"
            )
        );
        let hugo = snippet(
            SnippetForm::Hugo,
            "https://x.example/play/",
            "v1.abc",
            &o,
            "web \"1\"",
        );
        assert_eq!(
            hugo,
            format!(
                "{{{{< rollout-playground src=\"https://x.example/play/#v1.abc\" version=\"{VERSION}\" autoplay=\"true\" theme=\"dark\" controls=\"minimal\" panel=\"branch\" step=\"3\" loading=\"click\" title=\"Rollout Playground: web \\\"1\\\"\" >}}}}"
            )
        );
        let mdx = snippet(
            SnippetForm::Mdx,
            "https://x.example/play/",
            "v1.abc",
            &o,
            "web",
        );
        assert!(mdx.starts_with("{/* Load https://x.example/play/rollout-playground.js once"));
        assert!(mdx.ends_with("title=\"Rollout Playground: web\"></rollout-playground>"));
        // A gallery example's still picture goes into the element's button.
        let pictured = ViewOptions {
            preview: Some("https://x.example/play/previews/scale.svg".into()),
            film: Some("https://x.example/play/previews/scale.film.svg".into()),
            ..o.clone()
        };
        let html = snippet(
            SnippetForm::Element,
            "https://x.example/play/",
            "v1.abc",
            &pictured,
            "web",
        );
        assert!(
            html.contains(" step=\"3\" preview=\"https://x.example/play/previews/scale.svg\" film=\"https://x.example/play/previews/scale.film.svg\" loading=\"click\" "),
            "{html}"
        );
        // Served from …/latest/, a snippet names this release's own path.
        let pinned = snippet(
            SnippetForm::Element,
            "https://x.example/play/latest/",
            "v1.abc",
            &o,
            "web",
        );
        assert!(pinned.starts_with(&format!("<script src=\"https://x.example/play/{VERSION}/rollout-playground.js\"></script>\n<rollout-playground src=\"https://x.example/play/{VERSION}/#v1.abc\" version=\"{VERSION}\" ")), "{pinned}");
        let frame = iframe_snippet("https://x.example/play/latest/", "v1.abc", &o, "web");
        assert!(
            frame.starts_with(&format!(
                "<iframe src=\"https://x.example/play/{VERSION}/?embed"
            )),
            "{frame}"
        );
        assert!(
            frame.contains(&format!(" data-playground-version=\"{VERSION}\" ")),
            "{frame}"
        );
        assert_eq!(
            pinned_base("https://x.example/play/"),
            "https://x.example/play/"
        );
        // The reader's theme when the view names none.
        let plain = snippet(
            SnippetForm::Element,
            "b/",
            "v1.x",
            &ViewOptions::default(),
            "t",
        );
        assert!(
            !plain.contains("theme=") && !plain.contains("autoplay"),
            "{plain}"
        );
    }

    #[test]
    fn reads_every_parameter() {
        let o = ViewOptions::from_query(
            "?embed&autoplay=1&readonly&theme=dark&controls=minimal&step=3&until=40&panel=events",
        );
        assert!(o.embed && o.autoplay && o.readonly);
        assert_eq!(o.dark, Some(true));
        assert_eq!(o.controls, Controls::Minimal);
        // From 1 in the URL, as the page counts; indices inside.
        assert_eq!((o.step, o.until), (Some(2), Some(39)));
        assert_eq!(o.panel, Panel::Events);
        assert!(o.ignored.is_empty());
        let o = ViewOptions::from_query("embed&panel=chart&chart&predict");
        assert_eq!((o.panel, o.chart, o.predict), (Panel::Chart, true, true));
        assert_eq!(ViewOptions::from_query(&o.to_query()), o);
        assert!(!ViewOptions::from_query("chart=0").chart);
    }

    #[test]
    fn bad_parameters_are_ignored_and_reported() {
        let o = ViewOptions::from_query("embed&theme=pink&step=x&zoom=2&autoplay=false&until=0");
        assert!(o.embed && !o.autoplay);
        assert_eq!(o.dark, None);
        assert_eq!(o.ignored, vec!["theme=pink", "step=x", "zoom=2", "until=0"]);
    }

    #[test]
    fn a_range_that_ends_before_it_starts_is_refused_with_why() {
        let o = ViewOptions::from_query("embed&step=8&until=3");
        assert_eq!((o.step, o.until), (Some(7), None));
        assert_eq!(
            o.ignored,
            vec!["until=3 (it is before step=8: the range would hold no step)"]
        );
        // A range of one step holds.
        let one = ViewOptions::from_query("step=8&until=8");
        assert_eq!(
            (one.step, one.until, one.ignored.len()),
            (Some(7), Some(7), 0)
        );
    }

    #[test]
    fn the_embed_dialog_names_a_range_that_cannot_hold() {
        let at = |step: Option<usize>, until: Option<usize>| ViewOptions {
            step,
            until,
            ..ViewOptions::default()
        };
        let cases = [
            (at(None, None), None),
            (at(Some(2), Some(2)), None),
            (at(Some(9), None), None),
            (
                at(Some(7), Some(2)),
                Some("Until step 3 is before from step 8: the range would hold no step."),
            ),
            (
                at(Some(10), None),
                Some("From step 11 is past the run's last step, 10."),
            ),
            (
                at(None, Some(12)),
                Some("Until step 13 is past the run's last step, 10."),
            ),
        ];
        for (view, want) in cases {
            assert_eq!(view.range_problem(10).as_deref(), want, "{view:?}");
        }
        assert_eq!(ViewOptions::step_field("From", " 4 "), Ok(Some(3)));
        assert_eq!(ViewOptions::step_field("From", ""), Ok(None));
        for bad in ["0", "-3", "2.5"] {
            assert_eq!(
                ViewOptions::step_field("Until", bad),
                Err(format!(
                    "Until step must be a whole number from 1, not \"{bad}\"."
                ))
            );
        }
    }
}
