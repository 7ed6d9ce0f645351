import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;

/**
 * Lifter fixture: objects. A small class hierarchy (interface, abstract
 * class, two subclasses) as static nested classes, field access, every kind
 * of invoke, type tests and casts, object and multi-dimensional arrays,
 * monitors, invokedynamic (lambda, method reference, string concatenation)
 * and a static initializer.
 */
public class Objects {

    /** Interface with an abstract, a default and a static method. */
    interface Shape {
        // abstract interface method
        int area();

        // default method calling an abstract one (invokeinterface on this)
        default int doubledArea() {
            return 2 * area();
        }

        // static interface method allocating an implementing class
        static Shape unit() {
            return new Square(1);
        }
    }

    /** Abstract base class: instance field, static field, constructor, abstract method. */
    abstract static class Base implements Shape {
        static int created;
        protected final String name;
        int tag;

        // constructor: invokespecial Object.<init>, field store, static field increment
        Base(String name) {
            this.name = name;
            created++;
        }

        // abstract method (no Code attribute)
        abstract int sides();

        // invokevirtual on this for an abstract method and for an interface method not implemented here
        int describe() {
            return sides() * 1000 + area();
        }
    }

    /** First subclass: constructor calling super, overriding with a super call. */
    static final class Square extends Base {
        final int side;

        // constructor calling super(String) before storing its own field
        Square(int side) {
            super("square");
            this.side = side;
        }

        // getfield twice, imul
        @Override
        public int area() {
            return side * side;
        }

        // constant return
        @Override
        int sides() {
            return 4;
        }

        // super.describe(): invokespecial Objects$Base.describe
        @Override
        int describe() {
            return super.describe() + 1;
        }
    }

    /**
     * Second subclass with a private helper and a second constructor
     * delegating via this(...). Note: since JDK 11 javac calls private
     * instance methods of the same class with invokevirtual, not invokespecial.
     */
    static final class Rect extends Base {
        final int w;
        final int h;

        // constructor calling super(String), then two field stores
        Rect(int w, int h) {
            super("rect");
            this.w = w;
            this.h = h;
        }

        // constructor delegating to this(int, int) (invokespecial Rect.<init>, no super call)
        Rect(int side) {
            this(side, side);
        }

        // private helper, called from area()
        private int mul() {
            return w * h;
        }

        // private call: invokevirtual Objects$Rect.mul on JDK 11+
        @Override
        public int area() {
            return mul();
        }

        // constant return
        @Override
        int sides() {
            return 4;
        }
    }

    static final int[] TABLE;
    static int counter;
    static final String GREETING;

    // static initializer (<clinit>): array allocation, loop, static field stores
    static {
        TABLE = new int[8];
        for (int i = 0; i < TABLE.length; i++) {
            TABLE[i] = i * i;
        }
        counter = 0;
        GREETING = "hello";
    }

    int value;
    long total;
    Objects next;

    // constructor: implicit super() call (invokespecial Object.<init>) and field initialization
    Objects(int value) {
        this.value = value;
        this.total = value * 2L;
    }

    // instance field read and write (getfield / putfield), including through another reference
    int fieldsRW(Objects other) {
        this.value = other.value + 1;
        other.total = this.total + this.value;
        this.next = other;
        return next.value;
    }

    // static field read and write (getstatic / putstatic)
    static int staticRW(int k) {
        counter = counter + k;
        Base.created += 1;
        return counter + TABLE[k & 7];
    }

    // allocation with new + dup + invokespecial <init>, then a virtual call on the result
    static int allocate(int s) {
        Square sq = new Square(s);
        return sq.area();
    }

    // invokevirtual through the abstract class type (dynamic dispatch)
    static int virtualCall(Base b) {
        return b.describe() + b.sides();
    }

    // invokeinterface, including a default method
    static int interfaceCall(Shape s) {
        return s.area() + s.doubledArea();
    }

    // invokestatic on an interface static method and on a class static method
    static int staticCalls() {
        return Shape.unit().area() + staticRW(1);
    }

    // calls into nested classes: constructor delegation this(...), private call (Rect.mul) and super.describe() (invokespecial in Square)
    static int specialCalls(int w) {
        Rect r = new Rect(w);
        Square s = new Square(w);
        return r.area() + s.describe();
    }

    // private instance method, called below
    private int twice() {
        return value * 2;
    }

    // private static method, called below
    private static int thrice(int x) {
        return x * 3;
    }

    // calls to private methods: instance (invokevirtual on JDK 11+) and static (invokestatic)
    int callPrivate() {
        return twice() + thrice(value);
    }

    // super.method() call: invokespecial java/lang/Object.hashCode on this
    int superCall() {
        return super.hashCode() == 0 ? 1 : super.toString().length();
    }

    // instanceof and checkcast
    static int instanceOfCast(Object o) {
        if (o instanceof Square) {
            Square s = (Square) o;
            return s.side;
        }
        if (o instanceof Shape) {
            return ((Shape) o).area();
        }
        return -1;
    }

    // pattern-matching instanceof (javac: instanceof, then checkcast into a fresh local)
    static int patternInstanceOf(Object o) {
        if (o instanceof Rect r && r.w > 0) {
            return r.w + r.h;
        }
        return 0;
    }

    // cast that may fail (checkcast throwing ClassCastException)
    static String unconditionalCast(Object o) {
        return (String) o;
    }

    // arrays of objects: anewarray, aastore, aaload, arraylength
    static int objectArray(int n) {
        Shape[] shapes = new Shape[n];
        for (int i = 0; i < shapes.length; i++) {
            shapes[i] = (i % 2 == 0) ? new Square(i) : new Rect(i, 2);
        }
        int s = 0;
        for (int i = 0; i < shapes.length; i++) {
            s += shapes[i].area();
        }
        return s;
    }

    // array initializer of references: anewarray then dup/index/value/aastore per element
    static String[] arrayInit(String a) {
        return new String[] {a, "b", null};
    }

    // multi-dimensional array: multianewarray [[I with two dimensions
    static int multiArray() {
        int[][] m = new int[3][4];
        m[1][2] = 5;
        return m.length * m[0].length + m[1][2];
    }

    // partially specified dimensions: anewarray of int[] (second dimension left open), then newarray
    static int jaggedArray(int n) {
        int[][] m = new int[n][];
        for (int i = 0; i < n; i++) {
            m[i] = new int[i + 1];
        }
        return m.length;
    }

    // three-dimensional multianewarray with only two dimensions given
    static int multiArray3() {
        long[][][] m = new long[2][3][];
        return m.length + m[1].length;
    }

    // primitive arrays of every element type: newarray + typed load/store
    static double primitiveArrays(int n) {
        boolean[] z = new boolean[n];
        byte[] b = new byte[n];
        char[] c = new char[n];
        short[] s = new short[n];
        int[] i = new int[n];
        long[] l = new long[n];
        float[] f = new float[n];
        double[] d = new double[n];
        z[0] = true;
        b[0] = 1;
        c[0] = 'c';
        s[0] = 2;
        i[0] = 3;
        l[0] = 4L;
        f[0] = 5f;
        d[0] = 6.0;
        return (z[0] ? 1 : 0) + b[0] + c[0] + s[0] + i[0] + l[0] + f[0] + d[0];
    }

    // arraylength on a parameter
    static int arrayLength(Object[] a) {
        return a.length;
    }

    // synchronized block: monitorenter, monitorexit on normal and exceptional paths
    int synchronizedBlock(int k) {
        synchronized (this) {
            value += k;
            return value;
        }
    }

    // synchronized method: ACC_SYNCHRONIZED flag, no monitor instructions
    synchronized int synchronizedMethod(int k) {
        total += k;
        return (int) total;
    }

    // synchronized on a class object from a static method
    static int synchronizedStatic() {
        synchronized (Objects.class) {
            return ++counter;
        }
    }

    // non-capturing lambda (invokedynamic LambdaMetafactory, lambda body in a private static method)
    static int lambda(int x) {
        IntUnaryOperator inc = y -> y + 1;
        return inc.applyAsInt(x);
    }

    // capturing lambda: the captured local becomes an invokedynamic argument
    static int capturingLambda(int x, int k) {
        IntUnaryOperator addK = y -> y + k;
        return addK.applyAsInt(x);
    }

    // method references: static (Math::max) and unbound instance (String::length)
    static int methodRefs(int a, int b, String s) {
        IntBinaryOperator max = Math::max;
        ToIntFunction<String> len = String::length;
        return max.applyAsInt(a, b) + len.applyAsInt(s);
    }

    // bound instance method reference (receiver null-checked with requireNonNull)
    int boundMethodRef(Objects other) {
        ToIntFunction<Objects> f = other::fieldsRW;
        return f.applyAsInt(this);
    }

    // string concatenation: invokedynamic makeConcatWithConstants with int, long, char and String operands
    static String concat(String s, int i, long l, char c, Object o) {
        return "s=" + s + ", i=" + i + ", l=" + l + ", c=" + c + ", o=" + o;
    }

    // compound string concatenation on a local (+=)
    static String concatAssign(String s, int n) {
        s += n;
        s += '!';
        return s;
    }

    // Object methods on instances: invokevirtual on java/lang/Object and getClass()
    static boolean objectMethods(Object a, Object b) {
        return a.equals(b) && a.hashCode() == b.hashCode() && a.getClass() == b.getClass();
    }
}
