//! `jresa profile`'s engine: a JP2-style calling-context profiler on the real JVM.
//!
//! The Java agent (sources in `agent/`, embedded with `include_str!`) is compiled with the machine's
//! `javac` and `jar` into a cache directory on first use ([`agent`]). [`launch`] runs
//! `java -javaagent:<jar>=<config> <arguments>`, forwarding the program's standard streams and exit
//! status; at JVM shutdown the agent writes the calling-context tree (CCT) to a file that [`cct`]
//! parses into serde-serializable structs. Rendering lives in `crate::report`, like every other
//! output of jresa.
//!
//! **The agent counts every executed JVM bytecode instruction exactly, per calling context, even when
//! exceptions are thrown in the middle of a basic block**, and a context is a (method, call-site
//! bytecode index) pair below its parent, as in JP2 (Sarimbekov et al.): a block's instructions are
//! added to a local variable once per block and flushed to the context at calls and exits, and an
//! exception adds exactly the part of the block that ran (`agent/MethodRewriter.java`). Instrumented
//! JDK classes are kept between runs in a cache beside the agent jar (`agent/ClassCache.java`), so
//! that start-up does not instrument them again.
//!
//! What the tree shows where there is no ordinary call:
//!
//! - **Callbacks from the JDK** (a `Comparator` in `Arrays.sort`, a `Consumer` in `forEach`) sit below
//!   the JDK method that calls them, at its call site: the JDK is instrumented too (at load time, and
//!   the classes loaded before the agent by retransformation). Lambda and method-reference classes
//!   are hidden classes, which the JVM never shows an agent, so the lambda's body appears directly
//!   below the JDK caller.
//! - **String concatenation** (`invokedynamic` linked by `StringConcatFactory`) counts as its
//!   documented cost model says (see `jresa_analyses::cost_model`): the `String.valueOf(Object)`
//!   calls of its reference arguments that are not strings (and so their `toString`) sit below the
//!   method at the concatenation's call site, and the JDK's code that joins the parts runs with the
//!   probes off (`Transformer.concatenations`).
//! - **Native methods** have no bytecode and no context of their own; what native code calls back
//!   (JNI, `Method.invoke`'s native accessor) appears below the Java method that called the native
//!   method, at that call site.
//! - **Reflection**: `Method.invoke` is ordinary JDK code, so the target appears below the accessor
//!   that calls it (the native accessor for the first calls, a generated accessor class later).
//! - **Class initialisers** appear below the context whose execution triggered initialisation, with
//!   no call site (`call_site: None`); so do other methods the JVM runs on its own in the middle of a
//!   method (class loading, `invokedynamic` bootstrap methods, constructors of exceptions the JVM
//!   throws), except that one triggered by the resolution of an invoke takes that invoke's site.
//! - **Threads**: each thread has its own tree, summed by method and call site when the file is
//!   read (the agent writes each thread's tree as it is, below one root); a
//!   thread's first methods (`Thread.run`, or `main` for the main thread) sit below the root.
//! - **`--only`** profiles the dynamic extent of the selected methods on each thread (not work they
//!   hand to other threads); the extent's first context sits below the root with no call site, since
//!   code outside extents runs uninstrumented (each method has an uninstrumented copy, chosen at entry,
//!   as in JP2, except methods with an `invokedynamic`, whose copy would link its call site again).
//!
//! **The profile file** is, on Unix, a named pipe: a thread of jresa parses the tree while the agent
//! writes it at the JVM's exit (`launch::pipe`), instead of reading a file once the JVM has ended.
//!
//! **The collector**: the JVM runs with the serial collector unless the program's options choose
//! one (see `launch::PROFILE_COLLECTOR`): the tree is walked on every call in the order it was
//! built, which the serial collector keeps and the copying parallel collectors do not.
//!
//! **Counts do not depend on the JIT**: HotSpot's compilers replace some JDK methods by intrinsics
//! that skip their bytecode, so jresa starts the JVM with those intrinsics disabled ([`intrinsics`]).
//! A few methods run as intrinsics even in the interpreter (`Math.sqrt`, `sin`, `cos`, `tan`, `log`,
//! `log10`, `exp`, `pow`, `abs(double)`, `fma`, `Reference.get`, `CRC32C.updateBytes`): their
//! bytecode never runs, so they never appear.
//!
//! Limits: the profiler's own code is never counted (a per-thread guard turns the probes off while
//! it runs); classes defined through a loader that cannot see the boot class path cannot call the
//! probes; methods that grow beyond 64 KiB with the added code, and classes first loaded by the
//! transformer itself after start-up, stay uninstrumented and are listed in the profile
//! (`uninstrumented`); instrumented code uses more stack, so very deep recursion overflows sooner.

pub mod agent;
pub mod cct;
pub mod intrinsics;
pub mod launch;
pub mod tools;

pub use agent::{agent_jar, AgentJar};
pub use cct::{parse_cct, read_cct, Cct, CctNode, MethodId, ParseError, Totals, Uninstrumented};
pub use launch::{check_selector, run_profiled, ProfileRequest, ProfileRun};
pub use tools::{find_tool, ProfileError};
