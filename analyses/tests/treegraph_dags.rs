//! Tests of the treegraph scheduler on hand-built DAGs: golden files (`tests/data/treegraph/dags/`,
//! among them the paper's `x = 5 * x`) and properties of random DAGs checked by a symbolic stack
//! evaluator. Run with `UPDATE_EXPECT=1` to rewrite the expected files.

use jresa_analyses::treegraph::{
    find_best_order, order_cost, print_treegraph, schedule_dag, Choice, Dag, NodeId, ScheduleLimits, SearchOutcome,
    Step, TreeId, Treegraph, ValueRef,
};
use proptest::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/treegraph/dags")
}

/// Reads the test format: `nK = LABEL WORDS... OPERANDS... [/RESULTS] [after nJ...]`, one node per
/// line in id order, where operands are `nJ` or `nJ.R`; `terminator nK`; `#` starts a comment.
fn parse_dag(text: &str) -> Dag<String> {
    let mut dag = Dag::new();
    for (line_no, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("terminator ") {
            dag.set_terminator(node_ref(rest).node)
                .unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
            continue;
        }
        let (name, rhs) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("line {}: expected `nK = ...`", line_no + 1));
        assert_eq!(
            node_ref(name.trim()).node.index(),
            dag.len(),
            "line {}: nodes must be numbered in order",
            line_no + 1
        );
        let (body, after) = match rhs.split_once(" after ") {
            Some((body, after)) => (body, after.split_whitespace().map(node_ref).collect()),
            None => (rhs, Vec::new()),
        };
        let mut words = Vec::new();
        let mut operands = Vec::new();
        let mut results = 1;
        for word in body.split_whitespace() {
            if let Some(count) = word.strip_prefix('/') {
                results = count.parse().expect("result count");
            } else if is_node_ref(word) {
                operands.push(node_ref(word));
            } else {
                words.push(word);
            }
        }
        let id = dag
            .add(words.join(" "), operands, results)
            .unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        for earlier in after {
            dag.add_after(id, earlier.node)
                .unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        }
    }
    dag
}

fn is_node_ref(word: &str) -> bool {
    word.strip_prefix('n')
        .is_some_and(|rest| !rest.is_empty() && rest.split('.').all(|p| p.chars().all(|c| c.is_ascii_digit())))
}

fn node_ref(word: &str) -> ValueRef {
    let rest = word.strip_prefix('n').expect("node references start with n");
    let (node, result) = rest.split_once('.').unwrap_or((rest, "0"));
    ValueRef {
        node: NodeId(node.parse().expect("node number")),
        result: result.parse().expect("result number"),
    }
}

fn render_steps(dag: &Dag<String>, steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        let text = match step {
            Step::Node(id) => dag.node(*id).label.clone(),
            Step::Dup(k) => format!("dup {k}"),
            Step::Fetch(k) => format!("fetch {k}"),
            Step::Pop(k) => format!("pop {k}"),
            Step::Store(k) => format!("store L{k}"),
            Step::Load(k) => format!("load L{k}"),
        };
        out.push_str("  ");
        out.push_str(&text);
        out.push('\n');
    }
    out
}

/// The golden text of a DAG's schedule.
fn describe(dag: &Dag<String>) -> String {
    let schedule = schedule_dag(dag, &ScheduleLimits::deterministic(), 0).expect("schedules");
    let label = |id: NodeId, l: &String| format!("{id}:{l}");
    let order: Vec<String> = schedule.search.order.iter().map(ToString::to_string).collect();
    let code = schedule.code.counts();
    let baseline = schedule.baseline.counts();
    format!(
        "treegraph:\n{}search: {:?}, {} orders, cost {} (original order {})\norder: {}\ncode: {} instructions, {} dup, {} fetch, {} pop, max stack {}\n{}baseline: {} instructions, {} store, {} load, {} pop\n{}",
        print_treegraph(dag, &schedule.treegraph, label)
            .lines()
            .map(|l| format!("  {l}\n"))
            .collect::<String>(),
        schedule.search.outcome,
        schedule.search.orders,
        schedule.search.cost,
        schedule.search.original_cost,
        order.join(" "),
        code.total(),
        code.dup,
        code.fetch,
        code.pop,
        schedule.code.max_stack,
        render_steps(dag, &schedule.code.steps),
        baseline.total(),
        baseline.store,
        baseline.load,
        baseline.pop,
        render_steps(dag, &schedule.baseline.steps),
    )
}

fn check(expected_path: &Path, actual: &str) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(expected_path, actual).expect("write expected file");
        return;
    }
    let expected = std::fs::read_to_string(expected_path).unwrap_or_else(|_| {
        panic!(
            "missing {}; run with UPDATE_EXPECT=1 to create it",
            expected_path.display()
        )
    });
    assert_eq!(
        expected,
        actual,
        "{} differs; run with UPDATE_EXPECT=1 to accept",
        expected_path.display()
    );
}

#[test]
fn hand_built_dags_match_their_golden_schedules() {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data/treegraph/dags exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dag"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 6, "the DAG fixtures are missing");
    for input in inputs {
        let dag = parse_dag(&std::fs::read_to_string(&input).expect("read"));
        let schedule = schedule_dag(&dag, &ScheduleLimits::deterministic(), 0).expect("schedules");
        evaluate(&dag, &schedule.code.steps)
            .unwrap_or_else(|e| panic!("{}: treegraph code is wrong: {e}", input.display()));
        evaluate(&dag, &schedule.baseline.steps)
            .unwrap_or_else(|e| panic!("{}: baseline is wrong: {e}", input.display()));
        check(&input.with_extension("expect"), &describe(&dag));
    }
}

/// The paper's example spelled out, so that the expectation reads beside the figure it comes from.
#[test]
fn paper_example_x_equals_5_times_x() {
    let dag = parse_dag("n0 = ADDRG x\nn1 = INDIR n0\nn2 = CNST 5\nn3 = MUL n1 n2\nn4 = ASGN n0 n3 /0\n");
    let schedule = schedule_dag(&dag, &ScheduleLimits::deterministic(), 0).expect("schedules");
    // Two trees: ADDRG x (two predecessors, so cut) and the rest of the assignment.
    let trees: Vec<(u32, usize)> = schedule
        .treegraph
        .trees
        .iter()
        .map(|t| (t.root.0, t.items.len()))
        .collect();
    assert_eq!(trees, vec![(0, 1), (4, 6)]);
    assert_eq!(schedule.treegraph.trees[1].deps, vec![TreeId(0)]);
    // Fig. 1(d): the address is in place for both uses and duplicated once.
    assert_eq!(
        render_steps(&dag, &schedule.code.steps),
        "  ADDRG x\n  dup 1\n  INDIR\n  CNST 5\n  MUL\n  ASGN\n"
    );
    // Fig. 1(c): the store/load version through a temporary.
    assert_eq!(
        render_steps(&dag, &schedule.baseline.steps),
        "  ADDRG x\n  store L0\n  load L0\n  load L0\n  INDIR\n  CNST 5\n  MUL\n  ASGN\n"
    );
    assert!(schedule.search.outcome.is_optimal());
}

/// A symbolic value: the node and result that computed it and the values it was computed from.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sym {
    node: u32,
    result: u32,
    args: Vec<Rc<Sym>>,
}

/// The value the DAG says `value` has.
fn expected(dag: &Dag<String>, value: ValueRef, memo: &mut HashMap<ValueRef, Rc<Sym>>) -> Rc<Sym> {
    if let Some(known) = memo.get(&value) {
        return known.clone();
    }
    let args = dag
        .node(value.node)
        .operands
        .iter()
        .map(|&o| expected(dag, o, memo))
        .collect();
    let sym = Rc::new(Sym {
        node: value.node.0,
        result: value.result,
        args,
    });
    memo.insert(value, sym.clone());
    sym
}

/// Runs `steps` on a stack of symbolic values and checks that every node runs exactly once, on
/// exactly the values the DAG gives its operands, after every node it must follow, with the
/// terminator last, without the stack ever underflowing or a local being read before it is written.
fn evaluate(dag: &Dag<String>, steps: &[Step]) -> Result<usize, String> {
    let mut memo = HashMap::new();
    let mut stack: Vec<Rc<Sym>> = Vec::new();
    let mut locals: HashMap<u32, Rc<Sym>> = HashMap::new();
    let mut ran_at: Vec<Option<usize>> = vec![None; dag.len()];
    let mut ran = 0usize;
    let mut deepest = 0usize;
    for (k, step) in steps.iter().enumerate() {
        match *step {
            Step::Node(id) => {
                let node = dag.node(id);
                let arity = node.operands.len();
                if stack.len() < arity {
                    return Err(format!("step {k}: {id} underflows the stack"));
                }
                let args = stack.split_off(stack.len() - arity);
                let wanted: Vec<Rc<Sym>> = node.operands.iter().map(|&o| expected(dag, o, &mut memo)).collect();
                if args != wanted {
                    return Err(format!("step {k}: {id} gets the wrong operands"));
                }
                if ran_at[id.index()].replace(ran).is_some() {
                    return Err(format!("step {k}: {id} runs twice"));
                }
                ran += 1;
                for result in 0..node.results {
                    stack.push(Rc::new(Sym {
                        node: id.0,
                        result,
                        args: args.clone(),
                    }));
                }
            }
            Step::Dup(count) => {
                let top = stack.last().cloned().ok_or(format!("step {k}: dup of nothing"))?;
                for _ in 0..count {
                    stack.push(top.clone());
                }
            }
            Step::Fetch(depth) => {
                let depth = depth as usize;
                if depth == 0 || depth > stack.len() {
                    return Err(format!("step {k}: fetch {depth} of {} entries", stack.len()));
                }
                stack.push(stack[stack.len() - depth].clone());
            }
            Step::Pop(count) => {
                let count = count as usize;
                if count > stack.len() {
                    return Err(format!("step {k}: pop {count} of {} entries", stack.len()));
                }
                stack.truncate(stack.len() - count);
            }
            Step::Store(slot) => {
                let top = stack.pop().ok_or(format!("step {k}: store of nothing"))?;
                locals.insert(slot, top);
            }
            Step::Load(slot) => {
                let value = locals
                    .get(&slot)
                    .cloned()
                    .ok_or(format!("step {k}: load of unset L{slot}"))?;
                stack.push(value);
            }
        }
        deepest = deepest.max(stack.len());
    }
    for id in dag.ids() {
        let Some(at) = ran_at[id.index()] else {
            return Err(format!("{id} never runs"));
        };
        for &earlier in &dag.node(id).after {
            if ran_at[earlier.index()].is_none_or(|e| e > at) {
                return Err(format!("{id} runs before {earlier}"));
            }
        }
    }
    if let Some(t) = dag.terminator() {
        if ran_at[t.index()] != Some(dag.len() - 1) {
            return Err("the terminator is not last".to_owned());
        }
    }
    Ok(deepest)
}

/// Every topological order of a small treegraph.
fn all_orders(treegraph: &Treegraph) -> Vec<Vec<TreeId>> {
    fn go(tg: &Treegraph, placed: &mut Vec<TreeId>, out: &mut Vec<Vec<TreeId>>) {
        if placed.len() == tg.len() {
            out.push(placed.clone());
            return;
        }
        for k in 0..tg.len() as u32 {
            let t = TreeId(k);
            if !placed.contains(&t) && tg.tree(t).deps.iter().all(|d| placed.contains(d)) {
                placed.push(t);
                go(tg, placed, out);
                placed.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(treegraph, &mut Vec::new(), &mut out);
    out
}

/// A random node: operand picks (reduced modulo the values available), result count, and whether
/// it has an effect (effects are chained in order).
#[derive(Clone, Debug)]
struct NodeSpec {
    picks: Vec<u32>,
    results: u32,
    effect: bool,
}

fn node_spec() -> impl Strategy<Value = NodeSpec> {
    (
        prop::collection::vec(any::<u32>(), 0..=3),
        prop_oneof![1 => Just(0u32), 5 => Just(1u32), 1 => Just(2u32)],
        prop::bool::weighted(0.3),
    )
        .prop_map(|(picks, results, effect)| NodeSpec { picks, results, effect })
}

fn build_dag(specs: &[NodeSpec], terminator: Option<&Vec<u32>>) -> Dag<String> {
    let mut dag = Dag::new();
    let mut available: Vec<ValueRef> = Vec::new();
    let mut last_effect: Option<NodeId> = None;
    let pick = |picks: &[u32], available: &[ValueRef]| -> Vec<ValueRef> {
        if available.is_empty() {
            Vec::new()
        } else {
            picks.iter().map(|&p| available[p as usize % available.len()]).collect()
        }
    };
    for (k, spec) in specs.iter().enumerate() {
        let operands = pick(&spec.picks, &available);
        let id = dag.add(format!("op{k}"), operands, spec.results).expect("valid node");
        if spec.effect {
            if let Some(previous) = last_effect {
                dag.add_after(id, previous).expect("valid edge");
            }
            last_effect = Some(id);
        }
        available.extend((0..spec.results).map(|result| ValueRef { node: id, result }));
    }
    if let Some(picks) = terminator {
        let operands = pick(picks, &available);
        let id = dag.add("ret".to_owned(), operands, 0).expect("valid node");
        if let Some(previous) = last_effect {
            dag.add_after(id, previous).expect("valid edge");
        }
        dag.set_terminator(id).expect("valid terminator");
    }
    dag
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// The scheduled code and the baseline compute the DAG exactly (same values, effects in order,
    /// no underflow) and reach the stack depth they report; the search's order is a cheapest one
    /// whenever it reports optimality; and the code chosen to run is never longer than the
    /// baseline.
    #[test]
    fn random_dags_schedule_correctly(
        specs in prop::collection::vec(node_spec(), 1..9),
        terminator in prop::option::of(prop::collection::vec(any::<u32>(), 0..=3)),
    ) {
        let dag = build_dag(&specs, terminator.as_ref());
        let schedule = schedule_dag(&dag, &ScheduleLimits::deterministic(), 0)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let deepest = evaluate(&dag, &schedule.code.steps)
            .map_err(|e| TestCaseError::fail(format!("treegraph code: {e}")))?;
        prop_assert_eq!(deepest, schedule.code.max_stack as usize);
        let deepest = evaluate(&dag, &schedule.baseline.steps)
            .map_err(|e| TestCaseError::fail(format!("baseline: {e}")))?;
        prop_assert_eq!(deepest, schedule.baseline.max_stack as usize);
        let counts = schedule.code.counts();
        prop_assert_eq!(counts.overhead(), schedule.search.cost);
        prop_assert_eq!(counts.nodes as usize, dag.len());
        prop_assert!(schedule.search.cost <= schedule.search.original_cost);
        if schedule.search.outcome.is_optimal() {
            let cheapest = all_orders(&schedule.treegraph)
                .iter()
                .map(|order| order_cost(&schedule.treegraph, order).total())
                .min();
            prop_assert_eq!(cheapest, Some(schedule.search.cost));
        }
        let (choice, chosen) = schedule.chosen();
        prop_assert!(chosen.steps.len() <= schedule.baseline.steps.len());
        prop_assert_eq!(choice == Choice::Treegraph, chosen == &schedule.code);
    }
}

/// How often the treegraph code alone is longer than the baseline on random DAGs: the reason the
/// VM's code falls back to the baseline. It must stay rare.
#[test]
fn treegraph_code_is_rarely_longer_than_the_baseline() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (
        prop::collection::vec(node_spec(), 1..9),
        prop::option::of(prop::collection::vec(any::<u32>(), 0..=3)),
    );
    let (mut longer, mut shorter, total) = (0, 0, 3000);
    for _ in 0..total {
        let (specs, terminator) = strategy.new_tree(&mut runner).expect("generates").current();
        let dag = build_dag(&specs, terminator.as_ref());
        let schedule = schedule_dag(&dag, &ScheduleLimits::deterministic(), 0).expect("schedules");
        let (code, baseline) = (schedule.code.steps.len(), schedule.baseline.steps.len());
        if code > baseline {
            longer += 1;
        } else if code < baseline {
            shorter += 1;
        }
    }
    eprintln!("treegraph longer than baseline on {longer} of {total} DAGs, shorter on {shorter}");
    assert!(longer * 100 <= total, "{longer} of {total} longer");
    assert!(shorter * 4 >= total, "only {shorter} of {total} shorter");
}

/// The search finds the brute-force minimum on a DAG with many independent trees: three copies of
/// `reorder.dag`'s pattern, each wanting its two shared values in the opposite order from the
/// original one (720 orders).
/// Three copies of `reorder.dag`'s pattern, each wanting its two shared values in the opposite
/// order from the original one: 7 trees, 720 orders.
fn wide_dag() -> Dag<String> {
    let mut text = String::new();
    let mut parts = Vec::new();
    for k in 0..3 {
        let n = 8 * k;
        text.push_str(&format!("n{} = ADDRG a{k}\nn{} = INDIR n{}\n", n, n + 1, n));
        text.push_str(&format!("n{} = ADDRG b{k}\nn{} = INDIR n{}\n", n + 2, n + 3, n + 2));
        text.push_str(&format!("n{} = ADD n{} n{}\n", n + 4, n + 1, n + 1));
        text.push_str(&format!("n{} = SUB n{} n{}\n", n + 5, n + 3, n + 4));
        text.push_str(&format!("n{} = NEG n{}\n", n + 6, n + 3));
        text.push_str(&format!("n{} = MUL n{} n{}\n", n + 7, n + 5, n + 6));
        parts.push(n + 7);
    }
    text.push_str(&format!(
        "n24 = ADD n{} n{}\nn25 = ADD n24 n{}\n",
        parts[0], parts[1], parts[2]
    ));
    text.push_str("n26 = RET n25 /0\nterminator n26\n");
    parse_dag(&text)
}

/// The search finds the brute-force minimum on a DAG with many independent trees.
#[test]
fn search_matches_brute_force_on_wide_dags() {
    let dag = wide_dag();
    let treegraph = Treegraph::build(&dag).expect("builds");
    assert_eq!(treegraph.len(), 7);
    let result = find_best_order(&treegraph, &ScheduleLimits::deterministic());
    assert!(result.outcome.is_optimal());
    let orders = all_orders(&treegraph);
    assert_eq!(orders.len(), 720);
    let cheapest = orders.iter().map(|order| order_cost(&treegraph, order).total()).min();
    assert_eq!(cheapest, Some(result.cost));
    assert!(result.cost < result.original_cost);
}

/// Each budget stops the search and says so; the code is still correct and no worse than the
/// original order.
#[test]
fn budgets_stop_the_search_and_are_reported() {
    let dag = wide_dag();
    let deterministic = ScheduleLimits::deterministic();
    let cases = [
        (
            ScheduleLimits {
                step_budget: 5,
                ..deterministic
            },
            SearchOutcome::StepBudget,
        ),
        (
            ScheduleLimits {
                time_budget: std::time::Duration::ZERO,
                ..deterministic
            },
            SearchOutcome::TimeBudget,
        ),
        (
            ScheduleLimits {
                max_searched_trees: 6,
                ..deterministic
            },
            SearchOutcome::TooLarge,
        ),
    ];
    for (limits, outcome) in cases {
        let schedule = schedule_dag(&dag, &limits, 0).expect("schedules");
        assert_eq!(schedule.search.outcome, outcome);
        assert!(!outcome.is_optimal());
        assert!(schedule.search.cost <= schedule.search.original_cost);
        evaluate(&dag, &schedule.code.steps).expect("correct code");
    }
}
