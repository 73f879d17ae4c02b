#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| grundy_fuzz::entries::ordinal(data));
