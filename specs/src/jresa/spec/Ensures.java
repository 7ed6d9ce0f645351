package jresa.spec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Postcondition of a method or constructor, written in jresa's assertion
 * language: the heap shape and the amount of resource left over on normal
 * return.
 *
 * <p>The annotation is kept in the class file (but not visible at run time) so
 * that jresa can read it from the compiled bytecode.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface Ensures {
    /**
     * The assertion, e.g. {@code "{ | lseg(0, @ret, null) | 0 }"}: the result
     * is a list, and no resource is left over.
     */
    String value();
}
