package jresa.spec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Container for repeated {@link Invariant} annotations. javac produces it
 * automatically when a method carries more than one {@code @Invariant}; it is
 * rarely written by hand.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface Invariants {
    /** The invariants, one per annotated loop. */
    Invariant[] value();
}
