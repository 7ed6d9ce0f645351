/** A method selector for selective profiling: {@code Class.name} or {@code Class.name(descriptor)}. */
package jresa.agent;

/**
 * The agent's copy of jresa's {@code MethodSelector}: the class may be empty (any class), a simple name
 * ({@code Sort}), or a binary name with dots or slashes ({@code pkg.Sort}); the descriptor is optional.
 */
final class Selector {
    /** The class with slashes, or empty for any class. */
    final String className;
    final String name;
    /** The descriptor, or null for any. */
    final String descriptor;

    private Selector(String className, String name, String descriptor) {
        this.className = className;
        this.name = name;
        this.descriptor = descriptor;
    }

    static Selector parse(String text) {
        int paren = text.indexOf('(');
        String head = paren < 0 ? text : text.substring(0, paren);
        String descriptor = paren < 0 ? null : text.substring(paren);
        int dot = head.lastIndexOf('.');
        String className = dot < 0 ? "" : head.substring(0, dot).replace('.', '/');
        String name = dot < 0 ? head : head.substring(dot + 1);
        return new Selector(className, name, descriptor);
    }

    /** Whether the method {@code name descriptor} of class {@code owner} (with slashes) is selected. */
    boolean matches(String owner, String name, String descriptor) {
        if (!this.name.equals(name)) {
            return false;
        }
        if (this.descriptor != null && !this.descriptor.equals(descriptor)) {
            return false;
        }
        if (className.isEmpty() || owner.equals(className)) {
            return true;
        }
        int slash = owner.lastIndexOf('/');
        String simple = slash < 0 ? owner : owner.substring(slash + 1);
        return simple.equals(className) || owner.endsWith("/" + className);
    }
}
