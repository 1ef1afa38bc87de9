//! The store's own tests (a file of their own: the store is a big room).
use super::Store;
use crate::api::{Object, yaml::parse_objects};

/// The apiserver's name generator keeps 58 characters of a base, then 5 random ones.
#[test]
fn a_generated_name_is_at_most_63_characters() {
    assert_eq!(super::generated_base("web-7d4b9c-"), "web-7d4b9c-");
    let long = format!("{}-7d4b9c-", "x".repeat(60));
    assert_eq!(super::generated_base(&long), "x".repeat(58));
}

/// A Deployment `web` (app=web, one container).
const WEB: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: 'app:1'}]}\n";

/// A store holding every object of `yaml` (one or more documents), created in order.
fn store_with(yaml: &str) -> Store {
    let mut store = Store::new();
    for o in parse_objects(yaml).unwrap() {
        store.create(o).unwrap();
    }
    store
}

/// `BeforeDelete` stamps a graceful deletion with the instant its grace period ends;
/// `markAsDeleting` stamps one that only finalizers hold with now and a zero grace period.
#[test]
fn a_deletion_is_stamped_with_when_it_is_due() {
    use super::Propagation;
    use crate::api::Kind;
    let mut store = store_with(&format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec: {{nodeName: node-1, containers: [{{name: app, image: 'app:1'}}]}}\n---\n{WEB}"
    ));
    let now = store.now().plus_secs(10);
    store.clock().set(now);
    store
        .delete(Kind::Pod, "default/p", Propagation::Background, Some(20))
        .unwrap();
    let p = &store.pod("default/p").unwrap().metadata;
    assert_eq!(p.deletion_timestamp, Some(now.plus_secs(20)));
    assert_eq!(p.deletion_grace_period_seconds, Some(20));
    store
        .delete(
            Kind::Deployment,
            "default/web",
            Propagation::Foreground,
            None,
        )
        .unwrap();
    let d = &store.deployment("default/web").unwrap().metadata;
    assert_eq!(d.deletion_timestamp, Some(now));
    assert_eq!(d.deletion_grace_period_seconds, Some(0));
    assert_eq!(d.generation, 2);
}

/// The Deployment strategy's `PrepareForUpdate`: a new generation when the spec or the
/// annotations change, but not through status, nor for labels; a ReplicaSet's only for
/// its spec.
#[test]
fn a_deployments_generation_follows_its_spec_and_annotations() {
    let mut store = store_with(&format!(
        "{WEB}---\n{}",
        WEB.replace("Deployment", "ReplicaSet")
            .replace("name: web}", "name: web-1}")
    ));
    let generation = |store: &Store, key: &str| {
        let d = store.deployment(key).map(|d| d.metadata.generation);
        d.or_else(|| store.replicaset(key).map(|r| r.metadata.generation))
            .unwrap()
    };
    let write = |store: &mut Store, key: &str, status: bool, f: &dyn Fn(&mut Object)| {
        let mut o = match store.deployment(key) {
            Some(d) => Object::Deployment(Box::new(d.clone())),
            None => Object::ReplicaSet(Box::new(store.replicaset(key).unwrap().clone())),
        };
        f(&mut o);
        if status {
            store.update_status(o).unwrap();
        } else {
            store.update(o).unwrap();
        }
    };
    let annotate = |o: &mut Object| {
        o.meta_mut()
            .annotations
            .insert("kubernetes.io/change-cause".into(), "why".into());
    };
    let label = |o: &mut Object| {
        o.meta_mut().labels.insert("tier".into(), "web".into());
    };
    write(&mut store, "default/web", false, &label);
    assert_eq!(generation(&store, "default/web"), 1, "labels");
    write(&mut store, "default/web", true, &annotate);
    assert_eq!(
        generation(&store, "default/web"),
        1,
        "annotations through status"
    );
    write(&mut store, "default/web", false, &|o| {
        o.meta_mut()
            .annotations
            .insert("other".into(), "note".into());
    });
    assert_eq!(generation(&store, "default/web"), 2, "annotations");
    write(&mut store, "default/web-1", false, &annotate);
    assert_eq!(
        generation(&store, "default/web-1"),
        1,
        "a ReplicaSet's annotations"
    );
}
