import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Runs methods of the check fixtures on lists and trees of every size up to a limit and prints
 * how many units each call consumed. Each line of the plan (standard input) is
 * {@code class method descriptor nonnull}, where {@code nonnull} has one character per
 * parameter ({@code 1} when the precondition requires it non-null). Each output line is
 * {@code class method descriptor size... units} (a size per parameter, -1 for non-structures),
 * or {@code ... threw ExceptionClass}.
 */
public class CheckDriver {
    static final int MAX_SIZE = 6;
    static final Random random = new Random(42);

    public static void main(String[] args) throws Exception {
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            String[] parts = line.trim().split(" ");
            if (parts.length < 4) {
                continue;
            }
            run(Class.forName(parts[0]), parts[1], parts[2], parts[3]);
        }
    }

    static String descriptor(Method m) {
        StringBuilder sb = new StringBuilder("(");
        for (Class<?> p : m.getParameterTypes()) {
            sb.append(descriptor(p));
        }
        return sb.append(')').append(descriptor(m.getReturnType())).toString();
    }

    static String descriptor(Class<?> c) {
        if (c == int.class) return "I";
        if (c == long.class) return "J";
        if (c == boolean.class) return "Z";
        if (c == void.class) return "V";
        if (c.isArray()) return "[" + descriptor(c.getComponentType());
        return "L" + c.getName().replace('.', '/') + ";";
    }

    static List<Field> links(Class<?> c) {
        List<Field> links = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) && f.getType() == c) {
                f.setAccessible(true);
                links.add(f);
            }
        }
        return links;
    }

    static Object allocate(Class<?> c) throws Exception {
        Constructor<?> k = c.getDeclaredConstructors()[0];
        k.setAccessible(true);
        Object[] args = new Object[k.getParameterCount()];
        Class<?>[] types = k.getParameterTypes();
        for (int i = 0; i < args.length; i++) {
            args[i] = types[i] == int.class ? (Object) random.nextInt(10) : null;
        }
        Object o = k.newInstance(args);
        for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                f.setAccessible(true);
                f.setInt(o, random.nextInt(10));
            }
        }
        for (Field f : links(c)) {
            f.set(o, null);
        }
        return o;
    }

    /** A list of n cells, or a random tree of n nodes. */
    static Object build(Class<?> c, int n) throws Exception {
        List<Field> links = links(c);
        Object root = null;
        if (links.size() == 1) {
            for (int i = 0; i < n; i++) {
                Object cell = allocate(c);
                links.get(0).set(cell, root);
                root = cell;
            }
        } else if (links.size() == 2) {
            for (int i = 0; i < n; i++) {
                Object node = allocate(c);
                if (root == null) {
                    root = node;
                    continue;
                }
                Object at = root;
                while (true) {
                    Field side = links.get(random.nextInt(2));
                    Object next = side.get(at);
                    if (next == null) {
                        side.set(at, node);
                        break;
                    }
                    at = next;
                }
            }
        }
        return root;
    }

    static void run(Class<?> c, String name, String desc, String nonnull) throws Exception {
        Method method = null;
        for (Method m : c.getDeclaredMethods()) {
            if (m.getName().equals(name) && descriptor(m).equals(desc)) {
                method = m;
            }
        }
        if (method == null) {
            System.out.println(c.getName() + " " + name + " " + desc + " missing");
            return;
        }
        method.setAccessible(true);
        Class<?>[] types = method.getParameterTypes();
        boolean[] structure = new boolean[types.length];
        int structures = 0;
        for (int i = 0; i < types.length; i++) {
            structure[i] = !types[i].isPrimitive() && !links(types[i]).isEmpty();
            if (structure[i]) structures++;
        }
        int combinations = 1;
        for (int i = 0; i < structures; i++) combinations *= MAX_SIZE + 1;
        for (int combination = 0; combination < combinations; combination++) {
            for (int repeat = 0; repeat < 3; repeat++) {
                int rest = combination;
                int[] sizes = new int[types.length];
                Object[] args = new Object[types.length];
                boolean skip = false;
                for (int i = 0; i < types.length; i++) {
                    if (structure[i]) {
                        sizes[i] = rest % (MAX_SIZE + 1);
                        rest /= MAX_SIZE + 1;
                        if (sizes[i] == 0 && nonnull.charAt(i) == '1') skip = true;
                        args[i] = build(types[i], sizes[i]);
                    } else {
                        sizes[i] = -1;
                        args[i] = types[i] == int.class ? (Object) random.nextInt(10) : null;
                    }
                }
                if (skip) continue;
                Object receiver = Modifier.isStatic(method.getModifiers()) ? null : allocate(c);
                jresa.spec.Resource.count = 0;
                StringBuilder out = new StringBuilder(c.getName() + " " + name + " " + desc);
                for (int s : sizes) out.append(' ').append(s);
                try {
                    method.invoke(receiver, args);
                    out.append(' ').append(jresa.spec.Resource.count);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    out.append(" threw ").append(e.getCause().getClass().getName())
                        .append(' ').append(jresa.spec.Resource.count);
                }
                System.out.println(out);
            }
        }
    }
}
