import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Objects: virtual and interface dispatch (default methods), super calls, casts, collections, static init. */
public class VmObjects {
    interface Shape {
        int area();

        default int scaled(int k) {
            return area() * k;
        }
    }

    static abstract class Base {
        int id;

        public abstract int area();

        Base(int id) {
            this.id = id;
        }

        int describe() {
            return id * 1000 + area();
        }
    }

    static class Square extends Base implements Shape {
        final int side;

        Square(int side) {
            super(1);
            this.side = side;
        }

        public int area() {
            return side * side;
        }
    }

    static class Rect extends Base implements Shape {
        final int w;
        final int h;

        Rect(int w, int h) {
            super(2);
            this.w = w;
            this.h = h;
        }

        public int area() {
            return w * h;
        }

        @Override
        int describe() {
            return -super.describe();
        }

        @Override
        public int scaled(int k) {
            return Shape.super.scaled(k) + 1;
        }
    }

    static class Counter {
        static int created;
        static final int[] TABLE;

        static {
            TABLE = new int[8];
            for (int i = 0; i < TABLE.length; i++) {
                TABLE[i] = i * 3;
            }
        }

        Counter() {
            created++;
        }
    }

    static Shape shape(int k, int n) {
        if (k % 2 == 0) {
            return new Square(n);
        }
        return new Rect(n, k);
    }

    // inputs: 0, 3; 1, 3; 2, 5; 3, -2
    static int dispatch(int k, int n) {
        Shape s = shape(k, n);
        return s.area() + s.scaled(2) * 10 + ((Base) s).describe();
    }

    // inputs: 0; 1; 2
    static int casts(int k) {
        Object o = k == 0 ? (Object) new Square(2) : k == 1 ? (Object) "str" : (Object) new int[2];
        int r = 0;
        if (o instanceof Shape) {
            r += 1;
        }
        if (o instanceof CharSequence) {
            r += 2;
        }
        if (o instanceof int[]) {
            r += 4;
        }
        try {
            r += ((Rect) o).w;
        } catch (ClassCastException e) {
            r += 100;
        }
        return r;
    }

    // inputs: 3; 7
    static int staticInit(int i) {
        new Counter();
        new Counter();
        return (Counter.created > 0 ? 100 : 0) + Counter.TABLE[i];
    }

    // inputs: 5; 0; 20
    static int listSum(int n) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(i * i);
        }
        int s = 0;
        for (int i = 0; i < list.size(); i++) {
            s += list.get(i);
        }
        return s + list.size();
    }

    // inputs: 5; 0
    static int iterate(int n) {
        ArrayList<String> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(Integer.toString(i));
        }
        int total = 0;
        for (String s : list) {
            total += s.length();
        }
        return total;
    }

    // inputs: 10; 0; 300
    static int mapCount(int n) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            int key = i % 7;
            Integer old = counts.get(key);
            counts.put(key, old == null ? 1 : old + 1);
        }
        return counts.size() * 1000 + (counts.isEmpty() ? 0 : counts.get(0));
    }

    // inputs: 3; -1
    static Integer boxed(int n) {
        return n * 2;
    }

    // inputs: 3
    static Object plain(int n) {
        return new Square(n);
    }

    // inputs: 2
    static String className(int n) {
        return shape(n, n).getClass().getName();
    }

    // inputs: 4; -1
    static int listIndex(int i) {
        List<Integer> list = new ArrayList<>(java.util.Arrays.asList(1, 2, 3));
        return list.get(i);
    }
}
