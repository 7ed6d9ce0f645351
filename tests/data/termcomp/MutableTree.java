public class MutableTree {
    int value;
    MutableTree left;
    MutableTree right;

    MutableTree(int value) {
        this.value = value;
    }
}
