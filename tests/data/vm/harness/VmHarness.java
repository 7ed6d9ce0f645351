import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs methods on instances with the real JVM and prints each outcome in the canonical form of
 * jresa's `report::vm` (the VM's side prints the same). Input lines:
 * `Class<TAB>method<TAB>descriptor<TAB>arguments`, arguments in the instance syntax; one output line
 * per input line. Objects (`Class{field=value}`) are allocated without a constructor, as the VM does.
 */
public class VmHarness {
    private static final sun.misc.Unsafe UNSAFE = unsafe();

    private static sun.misc.Unsafe unsafe() {
        try {
            Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return (sun.misc.Unsafe) field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        Map<String, Method> methods = new HashMap<>();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8))) {
            for (String line : lines) {
                String[] parts = line.split("\t", 4);
                String key = parts[0] + "." + parts[1] + parts[2];
                Method method = methods.get(key);
                if (method == null) {
                    method = find(parts[0], parts[1], parts[2]);
                    method.setAccessible(true);
                    methods.put(key, method);
                }
                out.println(run(method, parts[3]));
            }
        }
    }

    static Method find(String className, String name, String descriptor) throws ClassNotFoundException {
        Class<?> owner = Class.forName(className.replace('/', '.'), false, VmHarness.class.getClassLoader());
        for (Method m : owner.getDeclaredMethods()) {
            if (m.getName().equals(name) && descriptor(m).equals(descriptor)) {
                return m;
            }
        }
        throw new IllegalArgumentException("no method " + className + "." + name + descriptor);
    }

    static String descriptor(Method m) {
        StringBuilder sb = new StringBuilder("(");
        for (Class<?> p : m.getParameterTypes()) {
            sb.append(typeDescriptor(p));
        }
        return sb.append(')').append(typeDescriptor(m.getReturnType())).toString();
    }

    static String typeDescriptor(Class<?> c) {
        if (c.isArray()) {
            return c.getName().replace('.', '/');
        }
        if (c.isPrimitive()) {
            return String.valueOf("ZBCSIJFDV".charAt(index(c)));
        }
        return "L" + c.getName().replace('.', '/') + ";";
    }

    static int index(Class<?> c) {
        String[] names = {"boolean", "byte", "char", "short", "int", "long", "float", "double", "void"};
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(c.getName())) {
                return i;
            }
        }
        throw new IllegalArgumentException(c.getName());
    }

    static String run(Method method, String arguments) {
        Object receiver = null;
        Object[] values;
        try {
            Parser parser = new Parser(arguments);
            boolean isStatic = java.lang.reflect.Modifier.isStatic(method.getModifiers());
            if (!isStatic) {
                receiver = parser.value(method.getDeclaringClass());
                parser.separator();
            }
            Class<?>[] types = method.getParameterTypes();
            values = new Object[types.length];
            for (int i = 0; i < types.length; i++) {
                values[i] = parser.value(types[i]);
                parser.separator();
            }
        } catch (Exception e) {
            return "bad input: " + e;
        }
        try {
            Object result = method.invoke(receiver, values);
            return "returns " + render(result, method.getReturnType());
        } catch (InvocationTargetException e) {
            return "throws " + e.getCause().getClass().getName().replace('.', '/');
        } catch (Throwable e) {
            return "throws " + e.getClass().getName().replace('.', '/');
        }
    }

    static String render(Object value, Class<?> type) {
        if (type == void.class) {
            return "void";
        }
        if (type.isPrimitive()) {
            return primitive(value);
        }
        return reference(value);
    }

    static String primitive(Object value) {
        if (value instanceof Integer) {
            return value.toString();
        }
        if (value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof Byte) {
            return "(byte)" + value;
        }
        if (value instanceof Short) {
            return "(short)" + value;
        }
        if (value instanceof Character) {
            return "(char)" + (int) (Character) value;
        }
        if (value instanceof Long) {
            return value + "L";
        }
        if (value instanceof Float) {
            return String.format("f:%08x", Float.floatToIntBits((Float) value));
        }
        return String.format("d:%016x", Double.doubleToLongBits((Double) value));
    }

    static String reference(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return quoted((String) value);
        }
        Class<?> c = value.getClass();
        if (c.isArray()) {
            StringBuilder sb = new StringBuilder(c.getName().replace('.', '/')).append('{');
            int n = Array.getLength(value);
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                Object element = Array.get(value, i);
                sb.append(c.getComponentType().isPrimitive() ? primitive(element) : reference(element));
            }
            return sb.append('}').toString();
        }
        if (value instanceof Number || value instanceof Character || value instanceof Boolean) {
            return c.getName().replace('.', '/') + "(" + primitive(value) + ")";
        }
        return "<" + c.getName().replace('.', '/') + ">";
    }

    static String quoted(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                sb.append("\\\"");
            } else if (c == '\\') {
                sb.append("\\\\");
            } else if (c >= 0x20 && c <= 0x7e) {
                sb.append(c);
            } else {
                sb.append(String.format("\\u%04x", (int) c));
            }
        }
        return sb.append('"').toString();
    }

    /** The instance syntax, typed by the parameter's class. */
    static final class Parser {
        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text;
        }

        void skip() {
            while (pos < text.length() && text.charAt(pos) == ' ') {
                pos++;
            }
        }

        void separator() {
            skip();
            if (pos < text.length() && text.charAt(pos) == ',') {
                pos++;
            }
        }

        String token() {
            skip();
            int start = pos;
            while (pos < text.length() && ",{}= ".indexOf(text.charAt(pos)) < 0) {
                pos++;
            }
            return text.substring(start, pos);
        }

        void expect(char c) {
            skip();
            if (pos >= text.length() || text.charAt(pos) != c) {
                throw new IllegalArgumentException("expected " + c + " at " + pos + " in " + text);
            }
            pos++;
        }

        boolean peek(char c) {
            skip();
            return pos < text.length() && text.charAt(pos) == c;
        }

        Object value(Class<?> type) throws Exception {
            skip();
            if (text.startsWith("null", pos)) {
                pos += 4;
                return null;
            }
            if (type == int.class) {
                return Integer.parseInt(token());
            }
            if (type == long.class) {
                return Long.parseLong(token());
            }
            if (type == boolean.class) {
                return Boolean.parseBoolean(token());
            }
            if (type == char.class) {
                return (char) Integer.parseInt(token());
            }
            if (type == short.class) {
                return Short.parseShort(token());
            }
            if (type == byte.class) {
                return Byte.parseByte(token());
            }
            if (type == float.class) {
                return Float.parseFloat(token());
            }
            if (type == double.class) {
                return Double.parseDouble(token());
            }
            if (peek('"')) {
                return string();
            }
            if (type.isArray()) {
                expect('{');
                List<Object> items = new ArrayList<>();
                while (!peek('}')) {
                    items.add(value(type.getComponentType()));
                    separator();
                }
                expect('}');
                Object array = Array.newInstance(type.getComponentType(), items.size());
                for (int i = 0; i < items.size(); i++) {
                    Array.set(array, i, items.get(i));
                }
                return array;
            }
            String className = token();
            Class<?> c = Class.forName(className.replace('/', '.'), true, VmHarness.class.getClassLoader());
            Object object = UNSAFE.allocateInstance(c);
            expect('{');
            while (!peek('}')) {
                String name = token();
                expect('=');
                Field field = field(c, name);
                field.setAccessible(true);
                field.set(object, value(field.getType()));
                separator();
            }
            expect('}');
            return object;
        }

        static Field field(Class<?> c, String name) throws NoSuchFieldException {
            for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (f.getName().equals(name) && !java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                        return f;
                    }
                }
            }
            throw new NoSuchFieldException(name);
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (text.charAt(pos) != '"') {
                char c = text.charAt(pos++);
                if (c == '\\') {
                    char e = text.charAt(pos++);
                    if (e == 'u') {
                        sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                        pos += 4;
                    } else {
                        sb.append(e);
                    }
                } else {
                    sb.append(c);
                }
            }
            pos++;
            return sb.toString();
        }
    }
}
