package it.libtwo;

public class Pager {
    public int page(int i) {
        return i / 10;
    }
}
