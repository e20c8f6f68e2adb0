package it.lib;

/** Extends the optional codec: it cannot be woven where opt is absent. */
public class CodecCounter extends it.opt.Codec {
    public int twice(int x) {
        return code(code(x));
    }
}
