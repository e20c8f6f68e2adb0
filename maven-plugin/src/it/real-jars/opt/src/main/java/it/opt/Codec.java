package it.opt;

/** An optional codec: lib can use it, but nothing needs it to run. */
public class Codec {
    public int code(int x) {
        return x + 1;
    }
}
