public class IntList {
    int value;
    IntList next;

    IntList(int value, IntList next) {
        this.value = value;
        this.next = next;
    }
}
