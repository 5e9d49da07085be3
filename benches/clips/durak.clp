;;; The Durak hand value (docs/durak.md; the top part of rules/durak.rules) as CLIPS defrules over card
;;; facts, one fact per card, and a driver that values the hands of a sample file written by
;;; `kibitzer bench durak write-sample=FILE`. The comparison anchor for `kibitzer bench durak`'s
;;; hand_values_per_s (see README.md beside this file; `durak.sh` runs both).
;;;
;;; A hand H of a 36-card deck (ranks 6..A), the trump suit T, the stock R (cards left in it) and S
;;; (every player's hand size summed, this player's included). The value is a sum of terms, one rule
;;; per term as in rules/durak.rules, each rule asserting one `term` fact per term it finds:
;;;   OutOfPlay      H and the stock empty: 30000, and no other term applies;
;;;   CardValue      each non-trump card: (rank − 8) × 100;
;;;   TrumpValue     each trump: (rank − 8) × 100 + 1300;
;;;   SameRank       each rank held k = 2..4 times: max(rank − 8, 1) × [50, 75, 125] (k = 2, 3, 4);
;;;   SuitBalance    each non-trump suit s, when n (non-trumps held) > 0: −trunc(200 × |3c − n| / n),
;;;                  c the cards of suit s held;
;;;   HandSize       when R > 0 or |H| > 0, with p = R + S − |H| (the others in play) > 0:
;;;                  trunc((p − 4|H|) × 150 / p), truncated toward zero;
;;;   HandSizeAlone  the same condition but p ≤ 0: −5850;
;;;   HandValue      (lower salience, after every term) the sum of the terms: the hand-value fact.
;;; The arithmetic is on integers, as kibitzer's is exact: `div` truncates toward zero in both CLIPS
;;; 6.30 and 6.4x ((div -7 2) is -3, checked), which is what HandSize needs for a negative numerator.
;;;
;;; Cards are numbered 0..51 as kibitzer numbers them: rank = 2 + id div 4, suit = S H D C by id mod 4.

(deftemplate card
   (slot id (type INTEGER))
   (slot rank (type INTEGER) (range 2 14))
   (slot suit (type SYMBOL) (allowed-symbols S H D C)))

;;; One term of the value. `rule` and `key` (the card, the rank, the suit) tell terms apart: CLIPS
;;; keeps no duplicate facts, and two cards may well be worth the same.
(deftemplate term
   (slot rule (type SYMBOL))
   (slot key (default none))
   (slot value (type INTEGER)))

(deftemplate hand-value
   (slot value (type INTEGER)))

;;; Per hand the driver asserts: (hand <card ids>), (trump T), (stock R), (sizes S), and a card fact
;;; per card. The suits are facts so that SuitBalance can match the three non-trump ones.
(deffacts suits
   (suit S) (suit H) (suit D) (suit C))

(defglobal
   ?*suits* = (create$ S H D C)
   ?*rank-multiplier* = 100
   ?*trump-bonus* = 1300
   ?*out-of-play* = 30000
   ?*same-rank-bonus* = (create$ 0 50 75 125)   ; × 100 already, by k = 1..4
   ?*suit-balance-penalty* = 200
   ?*hand-size-alone* = -5850                   ; (0.25 − 10) × 600
   ?*stride* = 17)                              ; EXPECTED TRUMP STOCK SIZES N and 12 card slots

;;; ---- the terms ----------------------------------------------------------------------------------

(defrule OutOfPlay "hand and stock empty: out of play"
   (declare (salience 90))
   (hand)
   (stock 0)
   =>
   (assert (term (rule OutOfPlay) (value ?*out-of-play*))))

(defrule CardValue "a non-trump card's rank value"
   (declare (salience 90))
   (trump ?t)
   (card (id ?c) (rank ?r) (suit ~?t))
   =>
   (assert (term (rule CardValue) (key ?c) (value (* (- ?r 8) ?*rank-multiplier*)))))

(defrule TrumpValue "a trump's rank value and the trump bonus"
   (declare (salience 90))
   (trump ?t)
   (card (id ?c) (rank ?r) (suit ?t))
   =>
   (assert (term (rule TrumpValue) (key ?c) (value (+ (* (- ?r 8) ?*rank-multiplier*) ?*trump-bonus*)))))

(defrule SameRank "a rank held k = 2..4 times"
   (declare (salience 90))
   (card (id ?a) (rank ?r))
   (not (card (id ?x&:(< ?x ?a)) (rank ?r)))        ; ?a is the rank's first card: once per rank
   (exists (card (id ?b&:(> ?b ?a)) (rank ?r)))     ; held at least twice
   =>
   (bind ?k (length$ (find-all-facts ((?f card)) (= ?f:rank ?r))))
   (assert (term (rule SameRank) (key ?r) (value (* (max (- ?r 8) 1) (nth$ ?k ?*same-rank-bonus*))))))

(defrule SuitBalance "a non-trump suit's distance from a third of the non-trumps"
   (declare (salience 90))
   (trump ?t)
   (suit ?s&~?t)
   (exists (card (suit ~?t)))                       ; n > 0
   =>
   (bind ?n (length$ (find-all-facts ((?f card)) (neq ?f:suit ?t))))
   (bind ?c (length$ (find-all-facts ((?f card)) (eq ?f:suit ?s))))
   (assert (term (rule SuitBalance) (key ?s)
                 (value (- 0 (div (* ?*suit-balance-penalty* (abs (- (* 3 ?c) ?n))) ?n))))))

(defrule HandSize "hand size against the others in play"
   (declare (salience 90))
   (hand $?cards)
   (stock ?r)
   (sizes ?s)
   (test (or (> ?r 0) (> (length$ ?cards) 0)))
   (test (> (- (+ ?r ?s) (length$ ?cards)) 0))
   =>
   (bind ?h (length$ ?cards))
   (bind ?p (- (+ ?r ?s) ?h))
   (assert (term (rule HandSize) (value (div (* (- ?p (* 4 ?h)) 150) ?p)))))   ; toward zero

(defrule HandSizeAlone "hand size, nothing else in play"
   (declare (salience 90))
   (hand $?cards)
   (stock ?r)
   (sizes ?s)
   (test (or (> ?r 0) (> (length$ ?cards) 0)))
   (test (<= (- (+ ?r ?s) (length$ ?cards)) 0))
   =>
   (assert (term (rule HandSize) (value ?*hand-size-alone*))))

(defrule HandValue "the hand value: the sum of its terms"
   (declare (salience 10))
   (hand $?)
   =>
   (bind ?v 0)
   (do-for-all-facts ((?f term)) TRUE (bind ?v (+ ?v ?f:value)))
   (assert (hand-value (value ?v))))

;;; ---- the driver ------------------------------------------------------------------------------

;;; Reads the sample file into one multifield, one hand every ?*stride* values (EXPECTED TRUMP STOCK
;;; SIZES N CARD1 .. CARDN, padded with 0), and returns it; lines starting with ; are comments.
(deffunction read-samples (?file)
   (if (not (open ?file durak-samples "r")) then
      (printout t "durak.clp: cannot open " ?file crlf)
      (return (create$)))
   (bind ?all (create$))
   (bind ?chunk (create$))                          ; appended to ?all every 64 hands, not each
   (bind ?hands 0)
   (bind ?line (readline durak-samples))
   (while (neq ?line EOF) do
      (bind ?fields (explode$ ?line))
      (if (and (> (length$ ?fields) 0) (neq (sub-string 1 1 ?line) ";")) then
         (loop-for-count (- ?*stride* (length$ ?fields)) do (bind ?fields (create$ ?fields 0)))
         (bind ?chunk (create$ ?chunk ?fields))
         (bind ?hands (+ ?hands 1))
         (if (= (mod ?hands 64) 0) then
            (bind ?all (create$ ?all ?chunk))
            (bind ?chunk (create$))))
      (bind ?line (readline durak-samples)))
   (close durak-samples)
   (create$ ?all ?chunk))

;;; Values every hand of ?file ?passes times and checks each value against kibitzer's. Per hand:
;;; (reset) (which clears the previous hand's facts), the card facts and the hand, trump, stock and
;;; sizes facts asserted, (run), the hand-value fact read. Timed with (time) around the passes only
;;; (not the file read or the load). Prints the first mismatching hands, then the figures; returns
;;; (hand-values seconds checksum mismatches), the checksum the sum of one pass's values.
(deffunction durak-values (?file ?passes)
   (bind ?samples (read-samples ?file))             ; a local: (reset) would reset a defglobal
   (bind ?hands (div (length$ ?samples) ?*stride*))
   (printout t "durak.clp: " ?hands " hands from " ?file ", " ?passes " passes" crlf)
   (bind ?checksum 0)
   (bind ?mismatches 0)
   (bind ?t0 (time))
   (loop-for-count (?pass 1 ?passes) do
      (loop-for-count (?i 0 (- ?hands 1)) do
         (bind ?b (* ?i ?*stride*))
         (bind ?n (nth$ (+ ?b 5) ?samples))
         (reset)
         (bind ?cards (create$))                    ; not subseq$: it costs the whole multifield
         (loop-for-count (?j (+ ?b 6) (+ ?b 5 ?n)) do
            (bind ?c (nth$ ?j ?samples))
            (assert (card (id ?c) (rank (+ 2 (div ?c 4))) (suit (nth$ (+ 1 (mod ?c 4)) ?*suits*))))
            (bind ?cards (create$ ?cards ?c)))
         (assert (hand ?cards)
                 (trump (nth$ (+ ?b 2) ?samples))
                 (stock (nth$ (+ ?b 3) ?samples))
                 (sizes (nth$ (+ ?b 4) ?samples)))
         (run)
         (bind ?v (fact-slot-value (nth$ 1 (find-fact ((?f hand-value)) TRUE)) value))
         (if (= ?pass 1) then (bind ?checksum (+ ?checksum ?v)))
         (if (!= ?v (nth$ (+ ?b 1) ?samples)) then
            (bind ?mismatches (+ ?mismatches 1))
            (if (<= ?mismatches 5) then
               (printout t "MISMATCH clips=" ?v " kibitzer=" (nth$ (+ ?b 1) ?samples) " trump="
                         (nth$ (+ ?b 2) ?samples) " stock=" (nth$ (+ ?b 3) ?samples) " sizes="
                         (nth$ (+ ?b 4) ?samples) " hand=" ?cards crlf)))))
   (bind ?secs (- (time) ?t0))
   (bind ?values (* ?hands ?passes))
   (format t "clips_hand_values=%d clips_seconds=%.3f clips_hand_values_per_s=%.0f clips_checksum=%d clips_mismatches=%d%n"
           ?values ?secs (/ ?values (max ?secs 0.000001)) ?checksum ?mismatches)
   (create$ ?values ?secs ?checksum ?mismatches))
