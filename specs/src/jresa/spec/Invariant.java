package jresa.spec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Loop invariant for one loop of the annotated method, written in jresa's
 * assertion language.
 *
 * <p>The loop is identified by {@link #id()}, which must match the argument of
 * a {@link Loop#invariant(int)} call placed just before that loop. A method
 * with several loops carries one {@code @Invariant} per loop (the annotation
 * is repeatable; javac stores repeated uses in an {@link Invariants}
 * container).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
@Repeatable(Invariants.class)
public @interface Invariant {
    /** Identifies the loop; matches {@code Loop.invariant(id)} in the body. */
    int id();

    /** The assertion that holds every time control reaches the loop head. */
    String value();
}
