public class Bag {
    int[] data;
    int size;

    Bag(int capacity) {
        data = new int[capacity];
    }

    // No loop, no call.
    // expect: terminating
    public void push(int v) {
        if (size < data.length) {
            data[size] = v;
            size++;
        }
    }

    // this.size - i decreases; the field size is not written in the loop.
    // expect: terminating
    public int total() {
        int s = 0;
        int i = 0;
        while (i < this.size) {
            s = s + data[i];
            i++;
        }
        return s;
    }

    // this.size - i decreases; the loop exits early on a match.
    // expect: terminating
    public boolean has(int v) {
        for (int i = 0; i < size; i++) {
            if (data[i] == v) {
                return true;
            }
        }
        return false;
    }
}
