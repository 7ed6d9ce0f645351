package jresa.spec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Precondition of a method or constructor, written in jresa's assertion
 * language: the heap shape and the amount of resource the caller must provide
 * on entry.
 *
 * <p>The annotation is kept in the class file (but not visible at run time) so
 * that jresa can read it from the compiled bytecode.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface Requires {
    /**
     * The assertion, e.g.
     * {@code "{ | lseg(1, @arg p, null) * lseg(0, @arg q, null) | 2 }"}: one
     * unit of resource per cell of the list from {@code p}, none for the list
     * from {@code q}, two more besides.
     */
    String value();
}
