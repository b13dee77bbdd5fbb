(** * Extraction of the integer runs to OCaml.

    Trusted here (not proved): Coq's extraction, the mappings of [ExtrOcamlBasic]
    (bool, lists, pairs to OCaml's), [ExtrOcamlZBigInt] (Z to Zarith's big integers,
    through its [Big_int_Z] interface) and [ExtrOcamlNatInt] ([nat], used only for
    sample indices, epoch numbers and update counts, to OCaml's 63-bit [int]: a count
    past 2^62 would wrap, far beyond any run's length). *)

From Coq Require Import Extraction ExtrOcamlBasic ExtrOcamlZBigInt ExtrOcamlNatInt.
From NovikoffExtracted Require Import ZPerceptron ZLargeMargin ZPdmSucc ZLabelled ZMulticlass ZVoted ZAveraged ZPdmMultiple ZRomma.

Extraction Language OCaml.
(* Only for speed: ZRomma.znormalize checks with Z.modulo that the divisor divides. *)
Extract Inlined Constant Coq.ZArith.BinInt.Z.gcd => "Big_int_Z.gcd_big_int".
Extraction "perceptron_extracted.ml" zepochs_pairs zpresent znatural zepochs zrun zreflect zg_epochs zpfm_test zpdm_test zsucc zlabelled_patterns zmepochs zvoted zaveraged zmu_epochs zmu_succ zromma.
