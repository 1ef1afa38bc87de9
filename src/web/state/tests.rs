//! The page's rules as a reader meets them: playback and captions, commands at a step, the
//! editor, links, recordings in slices, Compare and predict mode.

use super::*;

use crate::cluster::trace::StepKind;

fn page(query: &str) -> Rc<Model> {
    Rc::new(Model::from_url(query, "", false))
}

/// Plays with 100 ms frames until playback stops (or `frames` run out).
fn play(mut m: Rc<Model>, frames: usize) -> Rc<Model> {
    m = m.apply(Action::Playback(PlaybackAction::Play));
    for _ in 0..frames {
        if !m.play.playing {
            break;
        }
        m = m.apply(Action::Playback(PlaybackAction::Tick(100.0)));
    }
    m
}

#[test]
fn playback_holds_at_each_caption_until_the_reader_continues() {
    let m = play(page(""), 10_000);
    assert!(m.play.held && !m.play.playing, "held at a caption");
    let at = m.play.pos;
    assert!(m.session.trace[at].caption().is_some());
    assert_eq!(m.play.vt_ms, m.session.trace[at].t as f64);
    let m = play(m, 10_000);
    assert!(
        m.play.pos > at && m.play.held,
        "continue plays on to the next caption"
    );
    // The scenario's command there printed as it was reached.
    assert!(
        m.console
            .lines
            .iter()
            .any(|l| matches!(l, Line::Scenario(c) if c.starts_with("kubectl set image"))),
        "scenario commands print when reached"
    );
    // An autoplaying embed holds long enough to read, then plays on by itself.
    let mut e = Rc::new(Model::from_url("?embed&autoplay", "", false));
    let mut held_frames = 0;
    for _ in 0..20_000 {
        if !e.play.playing {
            break;
        }
        let before = e.play.pos;
        e = e.apply(Action::Playback(PlaybackAction::Tick(100.0)));
        if e.play.hold_ms > 0.0 && e.play.pos == before {
            held_frames += 1;
        }
    }
    assert_eq!(e.play.pos, e.last(), "the embed plays to the end");
    assert!(
        held_frames >= 20,
        "it paused on captions: {held_frames} frames"
    );
}

#[test]
fn next_change_skips_steps_that_change_nothing_one_can_see() {
    let m = page("");
    let sizes = |m: &Model, i: usize| -> Vec<(i32, i32)> {
        m.session.trace[i]
            .replica_sets
            .iter()
            .map(|r| (r.replicas, r.status.replicas))
            .collect()
    };
    let mut m = m;
    let mut visited = 0;
    while m.play.pos < m.last() && visited < 200 {
        let from = m.play.pos;
        m = m.apply(Action::Playback(PlaybackAction::NextChange));
        visited += 1;
        let to = m.play.pos;
        assert!(to > from);
        let s = &m.session.trace[to];
        assert!(
            s.kind() == StepKind::Action
                || sizes(&m, to) != sizes(&m, to - 1)
                || s.branch().is_some(),
            "step {to} changes something"
        );
        // Nothing between changed the sizes.
        for i in from + 1..to {
            assert_eq!(sizes(&m, i), sizes(&m, from), "step {i} was skipped");
        }
    }
    assert!(
        visited < m.session.len() / 2,
        "{visited} of {}",
        m.session.len()
    );
    let back = m
        .clone()
        .apply(Action::Playback(PlaybackAction::PreviousChange));
    assert!(back.play.pos < m.play.pos);
}

#[test]
fn a_change_typed_before_a_later_scenario_command_says_it_may_be_undone() {
    // The scenario sets the image later: a typed image change may be undone by it…
    let m = page("").apply(Action::Command(
        "kubectl set image deployment/web nginx=nginx:1.15".into(),
    ));
    assert!(
        m.console
            .lines
            .iter()
            .any(|l| matches!(l, Line::Note(n) if n.contains("kubectl set image"))),
        "a note names the later scenario command"
    );
    assert!(
        m.session.typed.iter().any(|t| *t),
        "the change is the reader's"
    );
    // …a scale is not touched by it, so nothing is said (issue 32: notes that are true).
    let m = page("").apply(Action::Command(
        "kubectl scale deployment/web --replicas=4".into(),
    ));
    assert!(
        !m.console
            .lines
            .iter()
            .any(|l| matches!(l, Line::Note(n) if n.contains("may undo"))),
        "no note for a later command that writes another field"
    );
}

#[test]
fn a_read_only_page_refuses_changes_and_says_so() {
    let m = page("?readonly");
    let before = m.session.clone();
    let m = m.apply(Action::Command(
        "kubectl scale deployment/web --replicas=1".into(),
    ));
    assert!(Rc::ptr_eq(&m.session, &before), "the run is untouched");
    assert_eq!(m.notice.as_deref(), Some("This playground is read-only."));
}

#[test]
fn a_change_in_the_console_lands_at_the_current_step_and_a_read_prints() {
    let m = page("").apply(Action::Playback(PlaybackAction::Seek(5)));
    let m = m.apply(Action::Command("kubectl get deployment web".into()));
    assert!(matches!(m.console.lines.last(), Some(Line::Output(o)) if o.contains("web")));
    let len = m.session.len();
    let m = m.apply(Action::Command(
        "kubectl scale deployment/web --replicas=2".into(),
    ));
    assert_ne!(
        m.session.len(),
        len,
        "the run was recomputed with the new step"
    );
    // The view moved on to the controllers' answer in the command's instant, and said so.
    let at = m
        .session
        .trace
        .iter()
        .rposition(|s| s.command() == Some("kubectl scale deployment/web --replicas=2"))
        .expect("the command is a step");
    assert!(m.session.is_typed(at));
    assert_eq!(m.play.pos, m.session.instant_end(at));
    assert!(
        m.play.pos > at,
        "the deployment controller synced in that instant"
    );
    assert!(
        m.console.lines.iter().any(
            |l| matches!(l, Line::Note(n) if n.starts_with("The controllers answered at once"))
        ),
        "the console says where the view moved"
    );
    assert_eq!(
        m.console.history.last().map(String::as_str),
        Some("kubectl scale deployment/web --replicas=2")
    );
}

#[test]
fn the_editor_follows_the_timeline_until_edited_then_asks_before_reverting() {
    let m = page("");
    assert!(m.editor.text.contains("nginx:1.14.2"), "{}", m.editor.text);
    let last = m.last();
    let m = m.apply(Action::Playback(PlaybackAction::Seek(last)));
    assert!(
        m.editor.text.contains("nginx:1.16.1"),
        "it follows: {}",
        m.editor.text
    );
    let m = m
        .apply(Action::Playback(PlaybackAction::Seek(0)))
        .apply(Action::Editor(EditorAction::Quick(
            quick::Field::Replicas,
            "12".into(),
        )))
        .apply(Action::Playback(PlaybackAction::Seek(last)));
    assert!(m.editor.text.contains("replicas: 12") && m.editor.text.contains("nginx:1.14.2"));
    let m = m.apply(Action::Editor(EditorAction::Apply));
    let asked = m
        .editor
        .pending_revert
        .clone()
        .expect("the apply is held back");
    assert!(
        asked
            .iter()
            .any(|l| l.ends_with("nginx:1.16.1 → nginx:1.14.2")),
        "{asked:?}"
    );
    let len = m.session.len();
    let m = m.apply(Action::Editor(EditorAction::ApplyAnyway));
    assert!(m.editor.pending_revert.is_none());
    assert_ne!(m.session.len(), len, "applied");
    assert!(
        m.editor.text.contains("replicas: 12"),
        "the applied text is kept"
    );
}

#[test]
fn a_bad_link_from_anywhere_leaves_the_work_as_it_was() {
    let m = page("").apply(Action::Editor(EditorAction::Changed(
        "kind: Deployment # mine".into(),
    )));
    let session = m.session.clone();
    for action in [
        Action::OpenLink("#v1.@@@".into()),
        Action::Remote(Remote::Load("v9.x".into())),
    ] {
        let after = m.clone().apply(action);
        assert!(Rc::ptr_eq(&after.session, &session));
        assert_eq!(after.editor.text, "kind: Deployment # mine");
        assert!(after.notice.is_some());
    }
}

/// A Deployment of `replicas` pods whose first rollout records past [`FIRST_SLICE`] when
/// large.
fn big(replicas: u32) -> String {
    format!(
        "name: big\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: big}}\n    spec:\n      replicas: {replicas}\n      selector: {{matchLabels: {{app: big}}}}\n      template:\n        metadata: {{labels: {{app: big}}}}\n        spec: {{containers: [{{name: app, image: 'app:1'}}]}}\n"
    )
}

/// Takes the pending recording's slices as the page's driver does, until it is done.
fn record_pending(mut m: Rc<Model>) -> Rc<Model> {
    let id = m.pending.as_ref().expect("a recording under way").id;
    loop {
        let p = m.pending.clone().unwrap();
        let done = p.recording.borrow_mut().as_mut().unwrap().go_on(Some(500));
        if done {
            return m.apply(Action::RecordingDone(id));
        }
        let progress = p.recording.borrow().as_ref().unwrap().progress();
        m = m.apply(Action::Recorded(id, progress));
        assert_eq!(m.pending.as_ref().unwrap().progress, progress);
    }
}

#[test]
fn a_long_run_is_recorded_in_slices_while_the_page_stays_as_it_was() {
    let m = page("").apply(Action::Editor(EditorAction::Changed(
        "kind: Deployment # mine".into(),
    )));
    let session = m.session.clone();
    let link = share::encode(&Scenario::parse(&big(4000)).unwrap(), 3);
    let m = m.apply(Action::OpenLink(link.clone()));
    assert!(
        m.pending.is_some(),
        "4 000 pods take more than the first slice"
    );
    assert!(
        Rc::ptr_eq(&m.session, &session),
        "the page is as it was meanwhile"
    );
    // Cancelled: nothing changes but the note.
    let cancelled = m.clone().apply(Action::CancelRecording);
    assert!(cancelled.pending.is_none() && Rc::ptr_eq(&cancelled.session, &session));
    assert_eq!(cancelled.editor.text, "kind: Deployment # mine");
    // A stale driver's report changes nothing.
    let stale = cancelled
        .clone()
        .apply(Action::RecordingDone(m.pending.as_ref().unwrap().id));
    assert!(Rc::ptr_eq(&stale, &cancelled));
    // Done: the run opens at the link's step, and is the run recorded in one go.
    let opened = record_pending(m);
    assert!(opened.pending.is_none());
    assert_eq!(opened.session.scenario.name, "big");
    assert_eq!(opened.play.pos, 3);
    let whole = Session::new(Scenario::parse(&big(4000)).unwrap()).unwrap();
    assert_eq!(
        crate::cluster::trace::to_jsonl(&opened.session.trace),
        crate::cluster::trace::to_jsonl(&whole.trace)
    );
    // A link opened at the page's start shows the default scenario meanwhile.
    let start = Rc::new(Model::from_url("?step=2", &link, false));
    assert_eq!(start.session.scenario.name, "rolling-update");
    let opened = record_pending(start);
    assert_eq!(
        (opened.session.scenario.name.as_str(), opened.play.pos),
        ("big", 1)
    );
    // A small scenario opens at once.
    let small = page("").apply(Action::OpenLink(share::encode(
        &Scenario::parse(&big(10)).unwrap(),
        0,
    )));
    assert!(small.pending.is_none() && small.session.scenario.name == "big");
}

#[test]
fn a_long_change_is_recorded_in_slices_and_nothing_else_changes_the_run_meanwhile() {
    let link = share::encode(&Scenario::parse(&big(4000)).unwrap(), 0);
    let m = record_pending(Rc::new(Model::from_url("", &link, false)));
    let m = m.apply(Action::Playback(PlaybackAction::Seek(usize::MAX)));
    let before = m.session.clone();
    let cmd = "kubectl set image deployment/big app=app:2";
    let m = m.apply(Action::Command(cmd.into()));
    assert_eq!(m.pending.as_ref().map(|p| p.what), Some("the change"));
    assert!(
        Rc::ptr_eq(&m.session, &before),
        "the run is as it was meanwhile"
    );
    let refused = m.clone().apply(Action::Command(
        "kubectl scale deployment/big --replicas=1".into(),
    ));
    assert!(
        refused
            .notice
            .as_deref()
            .unwrap()
            .contains("still being recorded")
    );
    assert!(Rc::ptr_eq(&refused.session, &before));
    let done = record_pending(m);
    assert!(done.pending.is_none());
    let mut direct = (*before).clone();
    direct.command(before.len() - 1, cmd).unwrap();
    assert_eq!(
        crate::cluster::trace::to_jsonl(&done.session.trace),
        crate::cluster::trace::to_jsonl(&direct.trace)
    );
    assert!(
        done.console
            .lines
            .iter()
            .any(|l| matches!(l, Line::Output(o) if o.contains("image updated")))
    );
}

#[test]
fn playing_from_the_end_starts_over_and_seeking_stays_within_until() {
    // `until` counts from 1, as the page shows steps: step 10 is index 9.
    let m = page("?until=10");
    assert_eq!(m.last(), 9);
    let m = m.apply(Action::Playback(PlaybackAction::Seek(500)));
    assert_eq!(m.play.pos, 9);
    let m = m.apply(Action::Playback(PlaybackAction::TogglePlay));
    assert!(m.play.playing);
    assert_eq!(m.play.pos, 0);
    let m = m.apply(Action::Remote(Remote::Seek(3)));
    assert!(!m.play.playing);
    assert_eq!(m.play.pos, 3);
}

/// A step range that cannot hold is refused with a note (the view opens at `step`), and a step
/// past the run says where it opened: neither is dropped without a word.
#[test]
fn a_range_that_cannot_hold_is_refused_with_a_note() {
    let m = page("?embed&step=8&until=3");
    assert_eq!(m.play.pos, 7);
    assert_eq!(
        m.last(),
        m.session.len() - 1,
        "until is refused, not applied"
    );
    assert_eq!(
        m.notice.as_deref(),
        Some("Ignored URL parameters: until=3 (it is before step=8: the range would hold no step)")
    );
    let m = page("?embed&step=5000");
    let last = m.session.len();
    assert_eq!(m.play.pos, last - 1);
    assert_eq!(
        m.notice,
        Some(format!(
            "Step 5000 is past the last step this view shows, {last}: it opens there."
        ))
    );
    let m = page("?embed&step=2&until=3");
    assert_eq!((m.play.pos, m.last(), m.notice.as_deref()), (1, 2, None));
}

/// A host page's theme toggle switches an embed live, whatever the link or the OS said.
#[test]
fn a_theme_command_from_the_host_switches_the_theme_and_nothing_else() {
    let m = page("?embed&theme=light&step=4");
    assert!(!m.dark);
    let m = m.apply(Action::Remote(Remote::Theme(true)));
    assert!(m.dark);
    assert_eq!(m.play.pos, 3, "the step stays");
    let m = m.apply(Action::Remote(Remote::Theme(false)));
    assert!(!m.dark);
}

#[test]
fn compare_runs_the_variants_on_one_clock_and_a_link_keeps_them() {
    let m = page("").apply(Action::Variant(VariantAction::Open));
    let c = m.compare.clone().expect("a comparison");
    assert_eq!(c.variants.len(), 3);
    assert_eq!(m.drafts[2].text, "spec.strategy.type=Recreate");
    // Playing moves one clock to the latest end of any variant.
    let m = play(m, 10_000);
    assert_eq!(m.play.vt_ms, c.end_ms as f64);
    assert!(c.end_ms > m.session.end_ms(), "maxSurge 0 takes longer");
    assert!(!m.play.playing);
    // Stepping goes from instant to instant across the variants.
    let back = m.clone().apply(Action::Playback(PlaybackAction::StepBack));
    assert!(back.play.vt_ms < m.play.vt_ms);
    let fwd = back
        .clone()
        .apply(Action::Playback(PlaybackAction::StepForward));
    assert_eq!(fwd.play.vt_ms, m.play.vt_ms);
    // The link carries the variants and opens the same comparison.
    let link = share::encode(&m.session.scenario, 0);
    let opened = Model::from_url("", &link, false);
    assert_eq!(opened.compare.unwrap().names(), c.names());
    // Back to one run: a link made then opens without variants.
    let one = m.apply(Action::Variant(VariantAction::Close));
    assert!(one.compare.is_none() && one.session.scenario.variants.is_empty());
}

#[test]
fn a_refused_variant_keeps_its_text_and_says_why() {
    let m = page("").apply(Action::Variant(VariantAction::Open));
    let before = m.compare.clone().unwrap();
    let typo = "spec.strategy.rollingUpdate.maxSurg=1";
    let m = m.apply(Action::Variant(VariantAction::Set(1, typo.into())));
    assert_eq!(m.drafts[1].text, typo);
    let e = m.drafts[1].error.clone().unwrap();
    assert!(
        e.contains("unknown field \"spec.strategy.rollingUpdate.maxSurg\""),
        "{e}"
    );
    assert!(
        Rc::ptr_eq(&before, m.compare.as_ref().unwrap()),
        "nothing re-ran"
    );
    let m = m.apply(Action::Variant(VariantAction::Set(
        1,
        "spec.replicas=4, world.startMs=500".into(),
    )));
    assert_eq!(m.drafts[1].error, None);
    assert_eq!(
        m.compare.as_ref().unwrap().variants[1].name,
        "replicas=4, startMs=500"
    );
    // Empty is the scenario as written; two to four variants.
    let m = m.apply(Action::Variant(VariantAction::Set(2, " ".into())));
    assert_eq!(m.compare.as_ref().unwrap().variants[2].name, "as written");
    let m = m
        .apply(Action::Variant(VariantAction::Add))
        .apply(Action::Variant(VariantAction::Add));
    assert_eq!(m.drafts.len(), 4);
    let m = m
        .apply(Action::Variant(VariantAction::Remove(0)))
        .apply(Action::Variant(VariantAction::Remove(0)))
        .apply(Action::Variant(VariantAction::Remove(0)));
    assert_eq!(m.drafts.len(), 2);
}

/// Plays on (past captions) until predict mode asks, or the run ends.
fn until_asked(mut m: Rc<Model>) -> Rc<Model> {
    while m.predict.asking.is_none() && m.play.pos < m.last() {
        m = play(m, 2000);
    }
    m
}

#[test]
fn the_mode_is_one_run_predict_or_compare_and_predict_waits_while_compared() {
    let m = page("");
    assert!(matches!(m.mode(), Mode::One));
    let m = page("predict");
    assert!(matches!(m.mode(), Mode::Predict));
    let m = m.apply(Action::Variant(VariantAction::Open));
    assert!(
        matches!(m.mode(), Mode::Compare(_)),
        "Compare shows over predict mode"
    );
    let m = m.apply(Action::Playback(PlaybackAction::StepForward));
    assert!(m.predict.asking.is_none(), "no question while compared");
    let m = m.apply(Action::Variant(VariantAction::Close));
    assert!(matches!(m.mode(), Mode::Predict), "predict mode comes back");
}

/// Issue 32, item 5: predict mode opens before the first sync, with the Deployment just
/// created and no ReplicaSet, so creating revision 1 is a question; the answer is checked like
/// any other, and the page then shows the first step.
#[test]
fn predict_mode_opens_before_the_first_sync_and_asks_what_it_does() {
    let m = page("predict");
    assert_eq!(m.predict.questions.first(), Some(&0));
    assert_eq!((m.predict.asking, m.play.pos), (Some(0), 0));
    assert!(m.before_first() && !m.play.playing);
    assert!(
        m.predict.guess.sizes.is_empty(),
        "no ReplicaSet to size yet"
    );
    let first = &m.session.trace[0];
    let created = first.replica_sets[0].replicas;
    let m = m
        .apply(Action::Answer(Answer::Digit(5)))
        .apply(Action::Answer(Answer::Strategy(
            crate::api::StrategyType::RollingUpdate,
        )))
        .apply(Action::Answer(Answer::NewReplicaSet(created.to_string())))
        .apply(Action::Reveal);
    let v = &m.predict.verdicts[&0];
    assert!(v.right(), "{v:?}");
    assert_eq!(v.sizes[0].actual, Some(created));
    assert!(!m.before_first() && m.play.pos == 0 && m.predict.revealed == Some(0));
    // Predict mode turned on at the first step asks too; an embed that opens later does not.
    let m = page("").apply(Action::TogglePredict);
    assert_eq!(m.predict.asking, Some(0));
    let m = page("predict&step=5");
    assert_eq!((m.predict.asking, m.play.pos), (None, 4));
    // A run whose first sync finds a ReplicaSet it did not create (an orphan it adopts) does
    // not ask it: the world before it is not drawn.
    let orphan = crate::scenario::gallery::GALLERY
        .iter()
        .find(|g| g.0 == "adopt-orphan-replicaset")
        .unwrap()
        .1;
    let s =
        crate::scenario::session::Session::new(crate::scenario::Scenario::parse(orphan).unwrap())
            .unwrap();
    assert!(!learn::asks_first(&s));
}

#[test]
fn predict_mode_stops_before_a_sync_and_checks_the_answer() {
    let m = page("predict");
    assert!(m.predict.on && !m.predict.questions.is_empty());
    // The first question (the first sync) is the test above's; from the next one on.
    assert_eq!(m.predict.asking, Some(0));
    let m = m
        .apply(Action::Answer(Answer::Digit(5)))
        .apply(Action::Reveal);
    let q = m.predict.questions[1];
    // Playing stops before the first question, with the sizes as they stand.
    let m = until_asked(m);
    assert_eq!(m.predict.asking, Some(q));
    assert_eq!(m.play.pos, q - 1);
    assert!(!m.play.playing);
    assert_eq!(m.predict.guess.sizes, ["10"]);
    // Revealing without a branch asks for one; a digit picks one.
    let m = m.apply(Action::Reveal);
    assert!(m.notice.as_deref().unwrap().contains("Pick a branch"));
    assert_eq!(m.predict.asking, Some(q));
    // A wrong answer: scale (4), sizes unchanged.
    let m = m
        .apply(Action::Answer(Answer::Digit(4)))
        .apply(Action::Reveal);
    assert_eq!(m.predict.revealed, Some(q));
    assert_eq!(m.play.pos, q);
    let v = &m.predict.verdicts[&q];
    assert!(!v.branch_right && !v.right());
    // Continue: the next question, answered right this time.
    let m = until_asked(m);
    let q2 = m.predict.asking.expect("the next question");
    assert!(q2 > q);
    let before = learn::before(&m.session, q2);
    let mut m = m.apply(Action::Answer(Answer::Digit(5)));
    for (k, (name, _, _)) in before.iter().enumerate() {
        let after = m.session.trace[q2]
            .replica_sets
            .iter()
            .find(|r| r.name == *name)
            .map_or(0, |r| r.replicas);
        m = m.apply(Action::Answer(Answer::Size(k, after.to_string())));
    }
    let created = m.session.trace[q2]
        .replica_sets
        .iter()
        .find(|r| !before.iter().any(|b| b.0 == r.name))
        .map(|r| r.replicas);
    if let Some(n) = created {
        m = m.apply(Action::Answer(Answer::NewReplicaSet(n.to_string())));
    }
    let m = m.apply(Action::Reveal);
    assert!(
        m.predict.verdicts[&q2].right(),
        "{:?}",
        m.predict.verdicts[&q2]
    );
    // A bad size is refused naming it, and nothing is counted.
    let m = until_asked(m);
    let q3 = m.predict.asking.expect("a third question");
    let m = m
        .apply(Action::Answer(Answer::Digit(5)))
        .apply(Action::Answer(Answer::Size(0, "lots".into())))
        .apply(Action::Reveal);
    assert!(
        m.notice
            .as_deref()
            .unwrap()
            .contains("\"lots\" is not a number"),
        "{:?}",
        m.notice
    );
    assert!(!m.predict.verdicts.contains_key(&q3));
    // Seeking back closes the question; the answers stay until the run changes.
    let m = m.apply(Action::Playback(PlaybackAction::Seek(0)));
    assert_eq!(m.predict.asking, None);
    assert_eq!(m.predict.verdicts.len(), 3);
    // Another example keeps predict mode on.
    let other = crate::scenario::gallery::GALLERY
        .iter()
        .find(|g| g.0 == "scale")
        .unwrap()
        .1;
    let n = m.clone().apply(Action::LoadGallery(3, other.to_string()));
    assert!(n.predict.on && !n.predict.questions.is_empty() && n.predict.verdicts.is_empty());
    let m = m.apply(Action::TogglePredict);
    assert!(!m.predict.on && m.predict.questions.is_empty() && m.predict.verdicts.is_empty());
}

/// Issue 32: the work the address bar does not carry comes back for its scenario (a reload,
/// Back): the transcript and recall, the editor's text, and which commands were the reader's,
/// so that opening another example still asks first.
#[test]
fn work_kept_for_a_scenario_comes_back_after_a_reload() {
    let m = page("").apply(Action::Command(
        "kubectl scale deployment/web --replicas=4".into(),
    ));
    let m = m.apply(Action::Editor(EditorAction::Changed(
        "kind: Deployment # mine".into(),
    )));
    assert!(m.has_work());
    let (work, key) = (m.work(), m.work_key());
    assert_eq!(work.editor.as_deref(), Some("kind: Deployment # mine"));
    assert!(!work.lines.is_empty() && work.typed.iter().any(|t| *t));
    // A reload opens the address bar's link: the run, without what only the page knew.
    let fragment = crate::scenario::share::encode(&m.session.scenario, m.play.pos);
    let reloaded = Rc::new(Model::from_url("", &fragment, false));
    assert_eq!(reloaded.work_key(), key, "the same scenario, the same key");
    assert!(!reloaded.has_work() && reloaded.console.lines.is_empty());
    let back = reloaded.apply(Action::Restore(work.clone()));
    assert_eq!(back.work(), work);
    assert!(
        back.has_work(),
        "opening another example asks first, after a reload too"
    );
    // Work already begun anew is never overwritten.
    let fresh = page("").apply(Action::Command("kubectl get rs".into()));
    let lines = fresh.console.lines.clone();
    let kept = fresh.apply(Action::Restore(work));
    assert_eq!(kept.console.lines, lines);
}

/// Issue 32: each example opened from the gallery is a new entry in the tab's history.
#[test]
fn each_example_opened_counts_for_the_tab_history() {
    let m = page("");
    assert_eq!(m.examples_opened, 0);
    let text = crate::scenario::gallery::DEFAULT.to_string();
    let m = m.apply(Action::LoadGallery(0, text.clone()));
    let m = m.apply(Action::LoadGallery(0, text));
    assert_eq!(m.examples_opened, 2);
}

/// Issue 32: the example's captions are about its own Deployment; once the reader's is
/// followed they are set aside (playback does not hold at them), and can be asked back.
#[test]
fn the_examples_captions_step_aside_for_the_readers_own_deployment() {
    let m = page("");
    assert_eq!(m.example_focus.as_deref(), Some("default/web"));
    assert!(m.captions_on());
    let api = "kubectl apply -f -\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: app, image: 'api:1'}]}\n";
    let m = m.apply(Action::Command(api.into()));
    assert_eq!(m.session.focus.as_deref(), Some("default/api"));
    assert!(!m.captions_on(), "the captions are about web");
    let m = m.apply(Action::Playback(PlaybackAction::Seek(0)));
    let played = play(m.clone(), 10_000);
    assert!(
        !played.play.held,
        "playback does not hold at web's captions"
    );
    let m = m.apply(Action::ShowCaptions);
    assert!(m.captions_on());
}

/// Issue 32: Continue at a caption on the last step ends there; only ▶ at the end starts over.
#[test]
fn continue_on_the_last_caption_does_not_start_over() {
    let mut m = (*page("")).clone();
    let last = m.last();
    m.seek(last);
    m.play.held = true;
    let m = Rc::new(m).apply(Action::Playback(PlaybackAction::Play));
    assert_eq!(m.play.pos, last, "stays at the end");
    assert!(!m.play.playing && !m.play.held);
    let m = m.apply(Action::Playback(PlaybackAction::Play));
    assert!(
        m.play.playing && m.play.pos == 0,
        "▶ at the end starts over"
    );
}

/// What one change costs in parses of its text (issue 47 asks for one YAML parse and one
/// command parse per change): an Apply of an edited manifest, from the check once the typing
/// stops to the run that follows it, and a command typed in the console. The check as one
/// types reads the text once (`quick::check_typed`, whose first document the quick controls
/// read; only a text that does not parse is read again, its first document alone, which a
/// broken later document leaves readable).
/// The Apply takes that check's verdict, reads its command line once (the scenario step
/// carries it: no replay reads it again) and its manifest once (`Command::manifests`, which
/// the trial on a copy of the world, the run and every later replay share); a console
/// command is read once, and the replay reads none of the scenario's commands again. Before
/// issue 47's third item: ((2, 0), (3, 2), (1, 6)).
#[test]
fn an_apply_and_a_command_read_their_text_this_many_times() {
    let m = page("");
    let last = m.last();
    let m = m.apply(Action::Playback(PlaybackAction::Seek(last)));
    let text = m.editor.text.replace("replicas: 10", "replicas: 5");
    assert_ne!(text, m.editor.text, "the example has ten replicas");
    crate::api::parses::take();
    let m = m.apply(Action::Editor(EditorAction::Changed(text)));
    let m = m.apply(Action::Editor(EditorAction::Check));
    let checked = crate::api::parses::take();
    let len = m.session.len();
    let m = m.apply(Action::Editor(EditorAction::Apply));
    assert_ne!(m.session.len(), len, "applied");
    let applied = crate::api::parses::take();
    let len = m.session.len();
    let m = m.apply(Action::Command(
        "kubectl scale deployment/web --replicas=7".into(),
    ));
    assert_ne!(m.session.len(), len, "the command ran");
    let commanded = crate::api::parses::take();
    assert_eq!(
        (checked, applied, commanded),
        ((1, 0), (1, 1), (0, 1)),
        "(YAML, command) parses of the check, the Apply and the command"
    );
}

/// A read typed while a drain an earlier command started still waits prints at once: only a
/// client the command itself starts (a `rollout status` that goes on) makes it a watch.
#[test]
fn a_read_while_an_earlier_drain_waits_prints_at_once() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/drain-blocked-by-budget.yaml"
    ))
    .unwrap();
    let m = page("").apply(Action::Remote(Remote::Load(text)));
    let last = m.last();
    let m = m.apply(Action::Playback(PlaybackAction::Seek(last)));
    let m = m.apply(Action::Command("kubectl drain node-2 --timeout=12s".into()));
    let m = m.apply(Action::Command("kubectl get nodes".into()));
    let after = m
        .console
        .lines
        .iter()
        .rposition(|l| matches!(l, Line::Command(c) if c == "kubectl get nodes"))
        .expect("the command is in the transcript");
    let printed = &m.console.lines[after + 1..];
    assert!(
        matches!(printed, [Line::Output(o)] if o.contains("node-2   Ready,SchedulingDisabled")),
        "{printed:?}"
    );
}
