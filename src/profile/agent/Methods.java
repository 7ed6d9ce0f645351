/** The agent's registries: method ids for instrumented methods, and what could not be instrumented. */
package jresa.agent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;

/**
 * Method ids and instrumentation statistics. Only agent code (with the thread's guard set) calls
 * these, so using JDK collections here is safe.
 */
final class Methods {
    private Methods() {}

    /** The ids of the methods registered in this run, by key. */
    private static final HashMap<String, Integer> IDS = new HashMap<>();
    private static int indexed;
    /** Where the cache holds the preloaded methods' names, by id, and the cache. */
    private static int[] preloaded = new int[0];
    private static ClassCache preloadedFrom;
    private static final List<String[]> METHODS = new ArrayList<>();
    private static final List<String[]> UNINSTRUMENTED = new ArrayList<>();
    /** Classes loaded while the transformer ran on the same thread, in binary names with slashes. */
    private static final HashSet<String> NESTED = new HashSet<>();
    private static long instrumentedClasses;
    private static long instrumentedMethods;
    private static long selectedMethods;

    /** The id of a method, registered on first use. */
    static synchronized int id(String owner, String name, String descriptor) {
        for (; indexed < METHODS.size(); indexed++) {
            String[] m = METHODS.get(indexed);
            IDS.put(m[0] + '.' + m[1] + m[2], indexed);
        }
        String key = owner + '.' + name + descriptor;
        Integer known = IDS.get(key);
        if (known != null) {
            return known;
        }
        int id = METHODS.size();
        METHODS.add(new String[] {owner, name, descriptor});
        IDS.put(key, id);
        indexed = METHODS.size();
        return id;
    }

    /**
     * Starts from the id table of an earlier run (see {@link ClassCache}), whose entries the cache
     * decodes when asked (at {@code offsets}); only before any id is given. The table's methods are
     * not indexed: they belong to cached classes, whose code carries their ids, and a method of a
     * class instrumented afresh gets a new id (a method with two ids in a run appears under the one
     * its running code carries).
     */
    static synchronized void preload(int[] offsets, ClassCache cache) {
        if (!METHODS.isEmpty()) {
            throw new IllegalStateException("method ids were given before the cache was read");
        }
        METHODS.addAll(Arrays.asList(new String[offsets.length][]));
        preloaded = offsets;
        preloadedFrom = cache;
        indexed = offsets.length;
    }

    /** Every method id given so far, in order. */
    static synchronized String[][] table() {
        for (int id = 0; id < preloaded.length; id++) {
            method(id);
        }
        return METHODS.toArray(new String[0][]);
    }

    /** The class, name and descriptor of a method id. */
    static synchronized String[] method(int id) {
        String[] method = METHODS.get(id);
        if (method == null) {
            method = preloadedFrom.method(preloaded[id]);
            METHODS.set(id, method);
        }
        return method;
    }

    static synchronized void instrumented(int methods, int selected) {
        instrumentedClasses++;
        instrumentedMethods += methods;
        selectedMethods += selected;
    }

    /** Records a class (or a method of it, in {@code what}) left uninstrumented and why. */
    static synchronized void uninstrumented(String what, String reason) {
        UNINSTRUMENTED.add(new String[] {what, reason});
    }

    /** Records a class the transformer had to refuse because it was loaded by the transformer itself. */
    static synchronized void nested(String className) {
        NESTED.add(className);
    }

    /** Returns and forgets the classes recorded by {@link #nested}. */
    static synchronized HashSet<String> takeNested() {
        HashSet<String> taken = new HashSet<>(NESTED);
        NESTED.clear();
        return taken;
    }

    static synchronized long instrumentedClasses() {
        return instrumentedClasses;
    }

    static synchronized long instrumentedMethods() {
        return instrumentedMethods;
    }

    static synchronized long selectedMethods() {
        return selectedMethods;
    }

    /** Everything left uninstrumented, including the nested loads that were never retried. */
    static synchronized List<String[]> uninstrumentedList() {
        List<String[]> all = new ArrayList<>(UNINSTRUMENTED);
        for (String name : NESTED) {
            all.add(new String[] {name, "loaded by the agent's own transformer"});
        }
        return all;
    }
}
