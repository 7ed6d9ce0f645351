public class ArrayElementBound {

    // The bound a[0] is re-read on every test but never written in the loop.
    // expect: terminating
    public static int triangle(int[] a) {
        int s = 0;
        for (int i = 0; i < a[0]; i++) {
            s = s + i;
        }
        return s;
    }

    // The loop bound is the element a[0]; the body writes only a[1], a different cell.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int[] a = new int[2];
        a[0] = Random.random();
        for (int i = 0; i < a[0]; i++) {
            a[1] = a[1] + i;
        }
        triangle(a);
    }
}
