;;; The stud odds query (rules/stud.rules, the stud example query) as CLIPS rules: my five cards against an
;;; opponent showing four with one card hidden. Every unseen card completes the opponent's hand;
;;; Rule1–Rule9 classify each hand, Rule10–Rule15 decide each showdown, Odds counts them, and
;;; Rule16–Rule18 advise. The comparison anchor for `kibitzer bench stud-odds` (see README.md beside
;;; this file; `odds.sh` runs both).
;;;
;;; Rule1–Rule9 are written over card facts as in stud.clp, the fastest writing tried: one closer to
;;; rules/stud.rules (hand facts tested by deffunctions same-suit, consecutive, ranks-held) took
;;; 2.0 ms per query in CLIPS 6.30 on this machine, card facts with (+ ?r 1) in the straights 1.25 ms,
;;; this one (the straights follow a card's `below` slot, its rank − 1: an equality CLIPS can hash)
;;; 1.04 ms.
;;;
;;; Hands are numbered: 0 is mine; the opponent's hand completed by unseen card u is hand u + 1.
;;; Cards are numbered 0..51 as kibitzer numbers them: rank = 2 + id div 4, suit = S H D C by
;;; id mod 4. Categories, best first: 1 straight flush, 2 four of a kind, 3 full house, 4 flush,
;;; 5 straight, 6 three of a kind, 7 two pair, 8 one pair, 9 high card; the ace is high only.

(deftemplate card
   (slot hand (type INTEGER))
   (slot id (type INTEGER))
   (slot rank (type INTEGER) (range 2 14))
   (slot below (type INTEGER))          ; rank − 1: what a straight's next card joins on
   (slot suit (type SYMBOL) (allowed-symbols S H D C)))

;;; A hand's five ranks (the tie-breaks read them).
(deftemplate hand
   (slot id (type INTEGER))
   (multislot ranks (type INTEGER)))

(deftemplate category
   (slot hand (type INTEGER))
   (slot number (type INTEGER)))

(deftemplate showdown
   (slot mine (type INTEGER))
   (slot theirs (type INTEGER)))

(deftemplate result
   (slot theirs (type INTEGER))
   (slot outcome (type SYMBOL) (allowed-symbols win tie loss)))

(deftemplate by-rules (slot deals (type INTEGER)))

(deftemplate odds
   (slot wins (type INTEGER))
   (slot ties (type INTEGER))
   (slot losses (type INTEGER))
   (slot p (type FLOAT)))

(deftemplate advice (slot text (type STRING)))

;;; (opponent-up <ids>): the opponent's visible cards. (unseen <id>): a card nobody shows.

(defglobal
   ?*suits* = (create$ S H D C)
   ?*bet-big-above* = 0.7
   ?*fold-below* = 0.3)

;;; ---- helpers --------------------------------------------------------------------------------

(deffunction deal (?hand $?ids)
   (bind ?ranks (create$))
   (foreach ?c ?ids
      (bind ?rank (+ 2 (div ?c 4)))
      (assert (card (hand ?hand) (id ?c) (rank ?rank) (below (- ?rank 1)) (suit (nth$ (+ 1 (mod ?c 4)) ?*suits*))))
      (bind ?ranks (create$ ?ranks ?rank)))
   (assert (hand (id ?hand) (ranks ?ranks))))

;;; The distinct ranks held exactly ?k times, highest first.
(deffunction ranks-held (?k $?ranks)
   (bind ?s (sort < ?ranks))
   (bind ?n (length$ ?s))
   (bind ?out (create$))
   (bind ?i 1)
   (while (<= ?i ?n) do
      (bind ?r (nth$ ?i ?s))
      (bind ?j ?i)
      (while (and (< ?j ?n) (= (nth$ (+ ?j 1) ?s) ?r)) do (bind ?j (+ ?j 1)))
      (if (= (+ (- ?j ?i) 1) ?k) then (bind ?out (create$ ?out ?r)))
      (bind ?i (+ ?j 1)))
   ?out)

;;; Element by element, the first difference decides: win, tie or loss for the first list.
(deffunction lex-outcome (?mine ?theirs)
   (loop-for-count (?i 1 (length$ ?mine)) do
      (bind ?a (nth$ ?i ?mine))
      (bind ?b (nth$ ?i ?theirs))
      (if (> ?a ?b) then (return win))
      (if (< ?a ?b) then (return loss)))
   tie)

;;; "8S" -> 24, "TD" -> 34.
(deffunction card-id (?text)
   (bind ?rank (str-index (sub-string 1 1 ?text) "23456789TJQKA"))
   (bind ?suit (str-index (sub-string 2 2 ?text) "SHDC"))
   (+ (* 4 (- ?rank 1)) (- ?suit 1)))

;;; ---- the deals --------------------------------------------------------------------------------

(defrule Showdown "play out one way the unseen cards can fall"
   (declare (salience 100))
   (opponent-up $?up)
   (unseen ?u)
   =>
   (bind ?h (+ ?u 1))
   (deal ?h ?up ?u)
   (assert (showdown (mine 0) (theirs ?h))))

;;; ---- Rule1–Rule9: classify every hand -----------------------------------------------------------
;;; As in stud.clp (the classification anchor), over card facts, each card tagged with its hand,
;;; except that the straights follow a card's `below` slot (its rank − 1) instead of computing
;;; (+ ?r 1): an equality CLIPS can hash, 17% faster here.

(defrule Rule1-straight-flush "five cards of one suit in sequence"
   (declare (salience 90))
   (card (hand ?h) (rank ?r&:(<= ?r 10)) (suit ?s))     ; the lowest card: the ace is high only
   (card (hand ?h) (below ?r) (rank ?r1) (suit ?s))
   (card (hand ?h) (below ?r1) (rank ?r2) (suit ?s))
   (card (hand ?h) (below ?r2) (rank ?r3) (suit ?s))
   (card (hand ?h) (below ?r3) (suit ?s))
   (not (category (hand ?h)))
   =>
   (assert (category (hand ?h) (number 1))))

(defrule Rule2-four-of-a-kind "four cards of one rank"
   (declare (salience 80))
   (card (hand ?h) (id ?a) (rank ?r))
   (card (hand ?h) (id ?b&:(> ?b ?a)) (rank ?r))
   (card (hand ?h) (id ?c&:(> ?c ?b)) (rank ?r))
   (card (hand ?h) (id ?d&:(> ?d ?c)) (rank ?r))
   (not (category (hand ?h)))
   =>
   (assert (category (hand ?h) (number 2))))

(defrule Rule3-full-house "three cards of one rank and two of another"
   (declare (salience 70))
   (card (hand ?h) (id ?a) (rank ?t))
   (card (hand ?h) (id ?b&:(> ?b ?a)) (rank ?t))
   (card (hand ?h) (id ?c&:(> ?c ?b)) (rank ?t))
   (card (hand ?h) (id ?d) (rank ?p&~?t))
   (card (hand ?h) (id ?e&:(> ?e ?d)) (rank ?p))
   (not (category (hand ?h)))
   =>
   (assert (category (hand ?h) (number 3))))

(defrule Rule4-flush "five cards of one suit (in sequence is Rule1, which outranks this)"
   (declare (salience 60))
   (card (hand ?h) (id ?a) (suit ?s))
   (card (hand ?h) (id ?b&:(> ?b ?a)) (suit ?s))
   (card (hand ?h) (id ?c&:(> ?c ?b)) (suit ?s))
   (card (hand ?h) (id ?d&:(> ?d ?c)) (suit ?s))
   (card (hand ?h) (id ?e&:(> ?e ?d)) (suit ?s))
   (not (category (hand ?h)))
   =>
   (assert (category (hand ?h) (number 4))))

(defrule Rule5-straight "five ranks in sequence, ace high only"
   (declare (salience 50))
   (card (hand ?h) (rank ?r&:(<= ?r 10)))               ; the lowest card: 10-J-Q-K-A is the highest straight
   (card (hand ?h) (below ?r) (rank ?r1))
   (card (hand ?h) (below ?r1) (rank ?r2))
   (card (hand ?h) (below ?r2) (rank ?r3))
   (card (hand ?h) (below ?r3))
   (not (category (hand ?h)))
   =>
   (assert (category (hand ?h) (number 5))))

(defrule Rule6-three-of-a-kind "three cards of one rank"
   (declare (salience 40))
   (card (hand ?h) (id ?a) (rank ?r))
   (card (hand ?h) (id ?b&:(> ?b ?a)) (rank ?r))
   (card (hand ?h) (id ?c&:(> ?c ?b)) (rank ?r))
   (not (category (hand ?h)))
   =>
   (assert (category (hand ?h) (number 6))))

(defrule Rule7-two-pair "two cards of one rank and two of a lower one"
   (declare (salience 30))
   (card (hand ?h) (id ?a) (rank ?hi))
   (card (hand ?h) (id ?b&:(> ?b ?a)) (rank ?hi))
   (card (hand ?h) (id ?c) (rank ?lo&:(< ?lo ?hi)))
   (card (hand ?h) (id ?d&:(> ?d ?c)) (rank ?lo))
   (not (category (hand ?h)))
   =>
   (assert (category (hand ?h) (number 7))))

(defrule Rule8-one-pair "two cards of one rank"
   (declare (salience 20))
   (card (hand ?h) (id ?a) (rank ?r))
   (card (hand ?h) (id ?b&:(> ?b ?a)) (rank ?r))
   (not (category (hand ?h)))
   =>
   (assert (category (hand ?h) (number 8))))

(defrule Rule9-high-card "none of Rule1–Rule8 holds"
   (declare (salience 10))
   (hand (id ?h))
   (not (category (hand ?h)))
   =>
   (assert (category (hand ?h) (number 9))))

;;; ---- Rule10–Rule15: decide every showdown --------------------------------------------------------

(defrule Rule10 "different categories: the better one wins"
   (declare (salience 4))
   (showdown (mine ?m) (theirs ?t))
   (category (hand ?m) (number ?a))
   (category (hand ?t) (number ?b&~?a))
   =>
   (assert (result (theirs ?t) (outcome (if (< ?a ?b) then win else loss)))))

(defrule Rule11 "same category: the ranks from high to low decide"
   (declare (salience 4))
   (showdown (mine ?m) (theirs ?t))
   (category (hand ?m) (number ?a&1|4|5|9))
   (category (hand ?t) (number ?a))
   (hand (id ?m) (ranks $?rm))
   (hand (id ?t) (ranks $?rt))
   =>
   (assert (result (theirs ?t) (outcome (lex-outcome (sort < ?rm) (sort < ?rt))))))

(defrule Rule12 "four of a kind against four of a kind: the quad rank decides"
   (declare (salience 4))
   (showdown (mine ?m) (theirs ?t))
   (category (hand ?m) (number 2))
   (category (hand ?t) (number 2))
   (hand (id ?m) (ranks $?rm))
   (hand (id ?t) (ranks $?rt))
   =>
   (assert (result (theirs ?t) (outcome (lex-outcome (ranks-held 4 ?rm) (ranks-held 4 ?rt))))))

(defrule Rule13 "full houses or three of a kind: the trip rank decides"
   (declare (salience 4))
   (showdown (mine ?m) (theirs ?t))
   (category (hand ?m) (number ?a&3|6))
   (category (hand ?t) (number ?a))
   (hand (id ?m) (ranks $?rm))
   (hand (id ?t) (ranks $?rt))
   =>
   (assert (result (theirs ?t) (outcome (lex-outcome (ranks-held 3 ?rm) (ranks-held 3 ?rt))))))

(defrule Rule14-15 "two pair or one pair: the pairs high to low, then the kickers high to low"
   (declare (salience 4))
   (showdown (mine ?m) (theirs ?t))
   (category (hand ?m) (number ?a&7|8))
   (category (hand ?t) (number ?a))
   (hand (id ?m) (ranks $?rm))
   (hand (id ?t) (ranks $?rt))
   =>
   (assert (result (theirs ?t)
                   (outcome (lex-outcome (create$ (ranks-held 2 ?rm) (ranks-held 1 ?rm))
                                         (create$ (ranks-held 2 ?rt) (ranks-held 1 ?rt)))))))

;;; ---- the odds and the advice -------------------------------------------------------------------

(defrule Odds "count the showdowns"
   (declare (salience 0))
   (by-rules (deals ?n))
   =>
   (bind ?w 0)
   (bind ?t 0)
   (bind ?l 0)
   (do-for-all-facts ((?r result)) TRUE
      (switch ?r:outcome
         (case win then (bind ?w (+ ?w 1)))
         (case tie then (bind ?t (+ ?t 1)))
         (case loss then (bind ?l (+ ?l 1)))))
   (assert (odds (wins ?w) (ties ?t) (losses ?l) (p (/ (float ?w) ?n)))))

(defrule Rule16 "bet big"
   (declare (salience -10))
   (odds (p ?p&:(> ?p ?*bet-big-above*)))
   =>
   (assert (advice (text "bet big"))))

(defrule Rule17 "fold"
   (declare (salience -10))
   (odds (p ?p&:(< ?p ?*fold-below*)))
   =>
   (assert (advice (text "fold"))))

(defrule Rule18 "bet or fold, either"
   (declare (salience -10))
   (odds (p ?p&:(>= ?p ?*fold-below*)&:(<= ?p ?*bet-big-above*)))
   =>
   (assert (advice (text "either"))))

;;; ---- the driver ------------------------------------------------------------------------------

;;; Answers the query ?reps times, each from an empty fact list: asserts my cards, the opponent's
;;; visible cards and the unseen cards, and runs the rules. Timed with (time) around the loop
;;; (the reset, the assertions, matching and firing; not the load or the process start). ?mine is
;;; my five cards and ?up the opponent's visible four, as text ("8S TD TS 8H 8C"). Prints the
;;; answer and the time per query; returns (wins ties losses p advice seconds). One untimed query
;;; first, with CLIPS's statistics watched, prints how many rules it fired.
(deffunction odds-query (?reps ?mine ?up)
   (bind ?m (create$))
   (foreach ?c (explode$ ?mine) (bind ?m (create$ ?m (card-id (str-cat ?c)))))
   (bind ?o (create$))
   (foreach ?c (explode$ ?up) (bind ?o (create$ ?o (card-id (str-cat ?c)))))
   (bind ?t0 (time))
   (loop-for-count (?rep 0 ?reps) do
      (if (= ?rep 0) then (watch statistics))
      (if (= ?rep 1) then (unwatch statistics) (bind ?t0 (time)))
      (reset)
      (deal 0 ?m)
      (assert (opponent-up ?o))
      (bind ?n 0)
      (loop-for-count (?c 0 51) do
         (if (and (not (member$ ?c ?m)) (not (member$ ?c ?o))) then
            (assert (unseen ?c))
            (bind ?n (+ ?n 1))))
      (assert (by-rules (deals ?n)))
      (run))
   (bind ?secs (- (time) ?t0))
   (bind ?odds (nth$ 1 (find-fact ((?f odds)) TRUE)))
   (bind ?advice (nth$ 1 (find-fact ((?f advice)) TRUE)))
   (bind ?w (fact-slot-value ?odds wins))
   (bind ?t (fact-slot-value ?odds ties))
   (bind ?l (fact-slot-value ?odds losses))
   (bind ?p (fact-slot-value ?odds p))
   (bind ?a (fact-slot-value ?advice text))
   (format t "clips_odds=%d,%d,%d,%g clips_advice=\"%s\" clips_queries=%d clips_seconds=%.3f clips_query_us=%.1f%n"
           ?w ?t ?l ?p ?a ?reps ?secs (/ (* 1000000 ?secs) (max ?reps 1)))
   (create$ ?w ?t ?l ?p ?a ?secs))
