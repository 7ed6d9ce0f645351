/** The agent's entry point: reads the configuration, installs the transformer, retransforms loaded classes. */
package jresa.agent;

import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code premain} of jresa's JP2-style profiling agent. The agent argument is the path of a
 * configuration file with one setting per line: {@code out PATH} (where the CCT is written at
 * shutdown, required), {@code only SELECTOR} (repeatable; restricts profiling to the dynamic extent
 * of the selected methods) and {@code cache DIR} (where instrumented JDK classes are kept between
 * runs, see {@link ClassCache}; without it every run instruments them again).
 *
 * <p>The agent jar is on the boot class path (its manifest's {@code Boot-Class-Path}), so the
 * instrumented classes of every class loader, {@code java.base} included, can call {@link Probe}.
 * This class itself must not mention ASM: it runs before the JDK's ASM packages are exported to it.
 */
public final class Agent {
    private Agent() {}

    /** Classes the agent uses later, loaded now so that their loading never re-enters the transformer. */
    private static final String[] OWN_CLASSES = {
        "jresa.agent.ClassCache", "jresa.agent.ClassCache$Cursor", "jresa.agent.ClassCache$Entry",
        "jresa.agent.ClassCache$Instrumented",
        "jresa.agent.CodeOffsets", "jresa.agent.Dump", "jresa.agent.Dump$Trees", "jresa.agent.MethodRewriter",
        "jresa.agent.MethodRewriter$Copy", "jresa.agent.Methods",
        "jresa.agent.Node", "jresa.agent.Probe", "jresa.agent.Selector", "jresa.agent.ThreadState",
        "jresa.agent.Transformer", "jresa.agent.Transformer$Instrumenter",
        "jresa.agent.Transformer$InstrumentingMethod",
    };

    /** The packages of the JDK's internal copy of ASM that the transformer uses. */
    private static final String[] ASM_PACKAGES = {"jdk.internal.org.objectweb.asm", "jdk.internal.org.objectweb.asm.tree"};

    /**
     * Classes the transformer loads only in rare cases, loaded now: a class first loaded while the
     * transformer runs stays uninstrumented unless start-up retries it. ASM throws these for methods
     * too large once instrumented (their superclass, {@code IndexOutOfBoundsException}, is loaded
     * with them and is one the program's own exceptions need).
     */
    private static final String[] RARELY_USED = {
        "jdk.internal.org.objectweb.asm.MethodTooLargeException", "jdk.internal.org.objectweb.asm.ClassTooLargeException",
    };

    /** The class instrumented once, with the result thrown away, to load the parts of ASM the transformer uses. */
    private static final String WARM_UP = "jresa/agent/WarmUp";

    /**
     * How many classes are retransformed per call (a failing call is retried class by class). Each
     * call walks every loaded class once more and deoptimises compiled code, so the classes loaded
     * before the agent (about 860 on JDK 17) go in one call.
     */
    private static final int BATCH = 1024;

    public static void premain(String args, Instrumentation inst) throws Exception {
        try {
            start(args, inst);
        } catch (Exception | Error error) {
            System.err.println("jresa agent: cannot start: " + error);
            throw error;
        }
    }

    private static void start(String args, Instrumentation inst) throws Exception {
        if (args == null || args.isEmpty()) {
            throw new IllegalArgumentException("the agent argument must name a configuration file");
        }
        String out = null;
        Path cacheDir = null;
        List<String> selectors = new ArrayList<>();
        List<Selector> only = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args), StandardCharsets.UTF_8)) {
            if (line.startsWith("out ")) {
                out = line.substring(4);
            } else if (line.startsWith("only ")) {
                selectors.add(line.substring(5));
                only.add(Selector.parse(line.substring(5)));
            } else if (line.startsWith("cache ")) {
                cacheDir = Paths.get(line.substring(6));
            } else if (!line.isEmpty()) {
                throw new IllegalArgumentException("unknown configuration line: " + line);
            }
        }
        if (out == null) {
            throw new IllegalArgumentException("the configuration names no output file");
        }
        if (!inst.isRetransformClassesSupported()) {
            throw new IllegalStateException("this JVM cannot retransform classes");
        }
        // The manifest attribute Add-Exports is honoured for executable JARs only, not for agents (on JDK 17
        // an agent with it still gets IllegalAccessError), so the agent opens the JDK's ASM to itself
        // through the instrumentation API, before any class that uses ASM is loaded.
        Module self = Agent.class.getModule();
        Map<String, Set<Module>> exports = new HashMap<>();
        for (String pkg : ASM_PACKAGES) {
            exports.put(pkg, Set.of(self));
        }
        inst.redefineModule(Object.class.getModule(), Set.of(), exports, Map.of(), Set.of(), Map.of());
        for (String name : OWN_CLASSES) {
            Class.forName(name, true, Agent.class.getClassLoader());
        }
        for (String name : RARELY_USED) {
            Class.forName(name, true, null);
        }
        Probe.initialise(!only.isEmpty());
        boolean wasInside = Probe.enterAgent();
        try {
            ClassCache cache = cacheDir == null ? null : ClassCache.open(cacheDir, selectors);
            Transformer transformer = new Transformer(only.toArray(new Selector[0]), cache);
            warmUp(transformer);
            inst.addTransformer(transformer, true);
            retransform(inst, loadedClasses(inst, null));
            // Classes first loaded by the transformer during the retransformation: retry them now that
            // the transformer's own code is loaded.
            for (int round = 0; round < 4; round++) {
                HashSet<String> nested = Methods.takeNested();
                if (nested.isEmpty()) {
                    break;
                }
                retransform(inst, loadedClasses(inst, nested));
            }
            Runtime.getRuntime().addShutdownHook(new Dump(out, cache));
        } finally {
            Probe.leaveAgent(wasInside);
        }
    }

    private static void warmUp(Transformer transformer) throws Exception {
        try (InputStream in = Agent.class.getResourceAsStream("/" + WARM_UP + ".class")) {
            if (in == null) {
                throw new IllegalStateException("the agent jar has no " + WARM_UP + ".class");
            }
            transformer.instrument(WARM_UP, in.readAllBytes(), false);
        }
    }

    /** The loaded classes that can be retransformed (all of them, or those named in {@code only}). */
    private static List<Class<?>> loadedClasses(Instrumentation inst, HashSet<String> only) {
        List<Class<?>> result = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            String name = c.getName();
            if (name.startsWith("jresa.agent.") || !inst.isModifiableClass(c)) {
                continue;
            }
            if (only == null || only.contains(name.replace('.', '/'))) {
                result.add(c);
            }
        }
        return result;
    }

    private static void retransform(Instrumentation inst, List<Class<?>> classes) {
        for (int from = 0; from < classes.size(); from += BATCH) {
            List<Class<?>> batch = classes.subList(from, Math.min(classes.size(), from + BATCH));
            try {
                inst.retransformClasses(batch.toArray(new Class<?>[0]));
            } catch (Throwable batchFailed) {
                for (Class<?> c : batch) {
                    try {
                        inst.retransformClasses(c);
                    } catch (Throwable failed) {
                        Methods.uninstrumented(c.getName().replace('.', '/'), "cannot retransform: " + failed);
                    }
                }
            }
        }
    }
}
