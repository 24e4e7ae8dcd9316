#!/usr/bin/env python3
"""Maps ImageNet-1k's classes to Apple Vision's classification identifiers through WordNet's hypernyms.

ImageNet's classes are WordNet 3.0 noun synsets (wnid = 'n' + the synset's offset). Apple's VNClassifyImageRequest
answers 1,303 identifiers of its own taxonomy, hierarchical ("german_shepherd", "dog", "canine", "mammal",
"animal"). Each Apple identifier is given the WordNet synset(s) it names; an ImageNet class then carries every
identifier whose synset is the class itself or one of its hypernyms. OpenVision sums the classifier's probabilities
over the classes that carry an identifier to give that identifier's confidence (Sources/OpenVision/Requests/
AppleTaxonomy.swift).

Inputs (none of them at run time; the output is committed):
  - scripts/models/apple-vision-identifiers.txt (Apple's identifiers, with their source);
  - Debian's WordNet 3.0 (`apt-get install wordnet-base`: /usr/share/wordnet/data.noun, index.noun);
  - ImageNet-1k's wnids in class order: timm's `timm/data/_info/imagenet_synsets.txt`, from the PyPI wheel
    timm-1.0.31-py3-none-any.whl (sha256 5bd50f7d0fe6d09bf9285ac2523234a1b7e6bf075c0be3e7aed09139fcb617c7;
    `pip download timm==1.0.31 --no-deps`), checked against the default classifier's labels (each label must be
    its synset's lemmas).

Run: python3 scripts/models/apple_taxonomy.py --timm-wheel timm-1.0.31-py3-none-any.whl \
       --labels /usr/local/share/openvision/models/efficientnet-lite0.labels.txt \
       > Sources/OpenVision/Requests/AppleTaxonomy+Table.swift
"""

import argparse
import collections
import hashlib
import os
import sys
import textwrap
import zipfile

LEXFILES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body noun.cognition "
    "noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive noun.object "
    "noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation noun.shape "
    "noun.state noun.substance noun.time"
).split()

TIMM_SHA256 = "5bd50f7d0fe6d09bf9285ac2523234a1b7e6bf075c0be3e7aed09139fcb617c7"

# Apple's identifiers that are not a WordNet lemma, or whose WordNet first (most frequent) sense is not the one
# Apple means. A spec is 'lemma' (its first sense), 'lemma.n.K' (its K-th sense) or 'lemma#lexfile' (its first
# sense in that lexicographer file). Identifiers in neither WordNet nor this table ("outdoor", "cloudy",
# "chair_other", ...) name scenes or leftovers no ImageNet class is: they stay at confidence 0.
OVERRIDES = {
    "adult_cat": ["domestic_cat"],
    "alligator_crocodile": ["crocodilian_reptile"],
    "balloon_hotair": ["hot-air_balloon"],
    "basket_container": ["basket.n.01"],
    "baseball_hat": ["baseball_cap"],
    "bell_pepper": ["sweet_pepper#noun.food", "sweet_pepper#noun.plant"],
    "belltower": ["bell_tower"],
    "bernese_mountain": ["Bernese_mountain_dog"],
    "clownfish": ["anemone_fish"],
    "coyote_wolf": ["coyote.n.01", "wolf.n.01"],
    "crane_construction": ["crane#noun.artifact"],
    "deejay": ["disk_jockey"],
    "fig": ["fig#noun.food", "fig#noun.plant"],
    "firetruck": ["fire_engine"],
    "gas_mask": ["gasmask"],
    "go_kart": ["go-kart"],
    "cake": ["cake#noun.food"],
    "canine": ["canine.n.02"],
    "chameleon": ["chameleon#noun.animal"],
    "hedgehog": ["hedgehog.n.02"],
    "jack_o_lantern": ["jack-o'-lantern"],
    "laundry_machine": ["washing_machine"],
    "lifejacket": ["life_jacket"],
    "lollipop": ["lollipop.n.02"],
    "mandarine": ["mandarin#noun.food"],
    "maple_tree": ["maple"],
    "matches": ["match#noun.artifact"],
    "motorhome": ["recreational_vehicle"],
    "optical_equipment": ["optical_instrument"],
    "organ_instrument": ["pipe_organ"],
    "payphone": ["pay-phone"],
    "pepper_veggie": ["sweet_pepper#noun.food"],
    "piggybank": ["piggy_bank"],
    "pitbull": ["pit_bull_terrier"],
    "plant": ["plant.n.02"],
    "pool": ["swimming_pool"],
    "pot_cooking": ["pot.n.01"],
    "puffer_fish": ["pufferfish"],
    "ridgeback": ["Rhodesian_ridgeback"],
    "seal": ["seal#noun.animal"],
    "sealion": ["sea_lion"],
    "semi_truck": ["trailer_truck"],
    "ski_equipment": ["ski"],
    "skunk": ["skunk#noun.animal"],
    "speakers_music": ["loudspeaker"],
    "spiderweb": ["spider_web"],
    "sportscar": ["sports_car"],
    "starfruit": ["carambola#noun.food"],
    "steamer_cookware": ["steamer#noun.artifact"],
    "straw_drinking": ["drinking_straw"],
    "string_instrument": ["stringed_instrument"],
    "stuffed_animals": ["teddy"],
    "submarine_water": ["submarine#noun.artifact"],
    "swing_playground": ["swing#noun.artifact"],
    "tea_drink": ["tea#noun.food"],
    "toad": ["true_toad"],
    "train_real": ["train.n.01"],
    "turtle": ["turtle#noun.animal"],
    "water_body": ["body_of_water"],
    "weight_scale": ["scale#noun.artifact"],
    "wetsuit": ["wet_suit"],
}

# Subtrees an identifier leaves out: WordNet files wheeled vehicles under 'container'; Apple's containers are boxes,
# jars and bags.
EXCLUDE = {"container": ["wheeled_vehicle"]}

EDIBLE = ("noun.food", "noun.plant")

# Apple's identifiers name things and scenes: where a lemma's most frequent WordNet sense is a person, a place, a
# document or an act ("chameleon", "Chihuahua", "gull", "book", "baseball") and another sense is a thing, the first
# thing-sense is the one meant; except for the identifiers that do name people.
CONCRETE = ("noun.animal", "noun.artifact", "noun.food", "noun.plant", "noun.object", "noun.substance", "noun.body")
PEOPLE = {"adult", "baby", "child", "teen", "bride", "bridesmaid", "clown", "acrobat", "entertainer", "singer"}

# The built-in detector's COCO-80 names (Sources/OpenVision/DefaultDetector/coco.names) as WordNet synsets, and the
# Apple identifiers a name adds beyond its hypernyms ('person' is not under WordNet's 'people').
COCO = {
    "person": ["person.n.01"], "bicycle": ["bicycle.n.01"], "car": ["car.n.01"], "motorbike": ["motorcycle"],
    "aeroplane": ["airplane"], "bus": ["bus.n.01"], "train": ["train.n.01"], "truck": ["truck.n.01"],
    "boat": ["boat.n.01"], "traffic light": ["traffic_light"], "fire hydrant": ["fireplug"],
    "stop sign": ["street_sign"], "parking meter": ["parking_meter"], "bench": ["bench.n.01"], "bird": ["bird.n.01"],
    "cat": ["cat.n.01"], "dog": ["dog.n.01"], "horse": ["horse.n.01"], "sheep": ["sheep.n.01"], "cow": ["cow.n.01"],
    "elephant": ["elephant.n.01"], "bear": ["bear.n.01"], "zebra": ["zebra"], "giraffe": ["giraffe"],
    "backpack": ["backpack"], "umbrella": ["umbrella.n.01"], "handbag": ["handbag"], "tie": ["necktie"],
    "suitcase": ["suitcase"], "frisbee": ["Frisbee"], "skis": ["ski"], "snowboard": ["snowboard"],
    "sports ball": ["ball.n.01"], "kite": ["kite#noun.artifact"], "baseball bat": ["baseball_bat"],
    "baseball glove": ["baseball_glove"], "skateboard": ["skateboard"], "surfboard": ["surfboard"],
    "tennis racket": ["tennis_racket"], "bottle": ["bottle.n.01"], "wine glass": ["wineglass"], "cup": ["cup.n.01"],
    "fork": ["fork.n.01"], "knife": ["knife.n.01"], "spoon": ["spoon.n.01"], "bowl": ["bowl#noun.artifact"],
    "banana": ["banana#noun.food"], "apple": ["apple.n.01"], "sandwich": ["sandwich"], "orange": ["orange.n.01"],
    "broccoli": ["broccoli#noun.food"], "carrot": ["carrot#noun.food"], "hot dog": ["hotdog#noun.food"],
    "pizza": ["pizza"], "donut": ["doughnut"], "cake": ["cake#noun.food"], "chair": ["chair.n.01"],
    "sofa": ["sofa"], "pottedplant": ["pot_plant"], "bed": ["bed.n.01"], "diningtable": ["dining_table"],
    "toilet": [], "tvmonitor": ["television_receiver"], "laptop": ["laptop"],
    "mouse": ["mouse#noun.artifact"], "remote": ["remote_control"], "keyboard": ["computer_keyboard"],
    "cell phone": ["cellular_telephone"], "microwave": ["microwave#noun.artifact"], "oven": ["oven"],
    "toaster": ["toaster#noun.artifact"], "sink": ["sink#noun.artifact"], "refrigerator": ["refrigerator"],
    "book": ["book#noun.artifact"], "clock": ["clock"], "vase": ["vase"], "scissors": ["scissors"],
    "teddy bear": ["teddy"], "hair drier": ["hand_blower"], "toothbrush": ["toothbrush"],
}
COCO_EXTRA = {"person": ["people"], "tvmonitor": ["television"], "pottedplant": ["decorative_plant"]}


def read_wordnet(root):
    synsets = {}  # offset -> (lexfile, words, hypernym offsets)
    for line in open(os.path.join(root, "data.noun"), encoding="utf-8"):
        if line.startswith("  "):
            continue
        fields = line.split("|")[0].split()
        offset, lexfile, count = int(fields[0]), LEXFILES[int(fields[1])], int(fields[3], 16)
        words = [fields[4 + 2 * i] for i in range(count)]
        pointer_count = int(fields[4 + 2 * count])
        pointers = fields[5 + 2 * count : 5 + 2 * count + 4 * pointer_count]
        hypernyms = [int(pointers[4 * i + 1]) for i in range(pointer_count) if pointers[4 * i] in ("@", "@i")]
        synsets[offset] = (lexfile, words, hypernyms)
    senses = {}  # lower-case lemma -> offsets, most frequent sense first
    for line in open(os.path.join(root, "index.noun"), encoding="utf-8"):
        if line.startswith("  "):
            continue
        fields = line.split()
        senses[fields[0].lower()] = [int(x) for x in fields[-int(fields[2]) :]]
    return synsets, senses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--timm-wheel", required=True)
    parser.add_argument("--labels", required=True)
    parser.add_argument("--wordnet", default="/usr/share/wordnet")
    parser.add_argument("--coco", default="Sources/OpenVision/DefaultDetector/coco.names")
    parser.add_argument("--identifiers", default=os.path.join(os.path.dirname(__file__), "apple-vision-identifiers.txt"))
    args = parser.parse_args()

    if hashlib.sha256(open(args.timm_wheel, "rb").read()).hexdigest() != TIMM_SHA256:
        sys.exit("timm wheel: sha256 mismatch")
    with zipfile.ZipFile(args.timm_wheel) as wheel:
        wnids = wheel.read("timm/data/_info/imagenet_synsets.txt").decode().split()
    synsets, senses = read_wordnet(args.wordnet)
    labels = [line.rstrip("\n") for line in open(args.labels, encoding="utf-8")]
    assert len(wnids) == len(labels) == 1000
    imagenet = [int(w[1:]) for w in wnids]
    for k, (offset, label) in enumerate(zip(imagenet, labels)):
        lemmas = tuple(w.strip().replace(" ", "_").lower() for w in label.split(","))
        assert tuple(w.lower() for w in synsets[offset][1]) == lemmas, (k, label, synsets[offset][1])

    identifiers = [l.strip() for l in open(args.identifiers, encoding="utf-8") if l.strip() and not l.startswith("#")]
    assert len(identifiers) == 1303 and identifiers == sorted(set(identifiers))

    def spec(text):
        if "#" in text:
            lemma, lexfile = text.split("#")
            found = [o for o in senses[lemma.lower()] if synsets[o][0] == lexfile]
            assert found, text
            return found[0]
        if ".n." in text:
            lemma, k = text.split(".n.")
            return senses[lemma.lower()][int(k) - 1]
        return senses[text.lower()][0]

    named = {}
    for identifier in identifiers:
        if identifier in OVERRIDES:
            named[identifier] = [spec(s) for s in OVERRIDES[identifier]]
            continue
        lemma = identifier if identifier in senses else None
        if lemma is None and identifier.endswith("s") and identifier[:-1] in senses:
            lemma = identifier[:-1]  # "oranges", "ferns", "arthropods"
        if lemma is None:
            continue
        first = senses[lemma][0]
        if synsets[first][0] not in CONCRETE + ("noun.Tops",) and identifier not in PEOPLE:
            first = next((o for o in senses[lemma] if synsets[o][0] in CONCRETE), first)
        # A fruit or a vegetable is a food sense and a plant sense in WordNet, one thing to Apple: keep both.
        extra = [o for o in senses[lemma][1:] if synsets[o][0] in EDIBLE] if synsets[first][0] in EDIBLE else []
        # A fish or a shellfish is first a food in WordNet, a fur ("otter", "leopard") a substance: the animal too.
        if synsets[first][0] in ("noun.food", "noun.substance"):
            extra += [o for o in senses[lemma] if synsets[o][0] == "noun.animal"][:1]
        named[identifier] = [first] + extra
    excluded = {k: [spec(s) for s in v] for k, v in EXCLUDE.items()}

    memo = {}

    def ancestors(offset):
        if offset not in memo:
            found = {offset}
            for h in synsets[offset][2]:
                found |= ancestors(h)
            memo[offset] = frozenset(found)
        return memo[offset]

    def carried(offsets):
        up = frozenset().union(*(ancestors(o) for o in offsets))
        return [
            i
            for i, identifier in enumerate(identifiers)
            if identifier in named
            and any(o in up for o in named[identifier])
            and not any(x in up for x in excluded.get(identifier, []))
        ]

    rows = []
    for k, offset in enumerate(imagenet):
        found = carried([offset])
        if found:
            rows.append(f"{k} " + " ".join(str(i) for i in found))
    coco_names = [l.strip() for l in open(args.coco, encoding="utf-8") if l.strip()]
    assert sorted(coco_names) == sorted(COCO), set(coco_names) ^ set(COCO)
    coco_rows = []
    for name in coco_names:
        found = sorted(set(carried([spec(s) for s in COCO[name]]) + [identifiers.index(x) for x in COCO_EXTRA.get(name, [])]))
        if found:
            coco_rows.append(name + "\t" + " ".join(str(i) for i in found))

    identifiers_text = "\n".join(textwrap.wrap(" ".join(identifiers), 110))
    table_text = "\n".join(rows)
    coco_text = "\n".join(coco_rows)
    indent = lambda text: "\n".join("        " + line for line in text.split("\n"))
    print(
        f'''// Generated by scripts/models/apple_taxonomy.py from Apple's identifiers, Debian's WordNet 3.0 and ImageNet-1k's
// wnids: do not edit. {sum(1 for i in identifiers if i in named)} of the {len(identifiers)} identifiers name a WordNet synset; {len(rows)} of the 1000 ImageNet classes carry
// at least one identifier.

extension AppleTaxonomy {{
    /// Apple's 1,303 identifiers, space-separated, in Apple's order.
    static let identifiersText = """
{indent(identifiers_text)}
        """

    /// One line per ImageNet-1k class that carries identifiers: the class index, then the indices (into
    /// `identifiersText`) of the identifiers it carries: its own and its hypernyms'.
    static let imageNetText = """
{indent(table_text)}
        """

    /// One line per class of the built-in detector (COCO-80): its name, a tab, then the indices of the identifiers
    /// it carries.
    static let cocoText = """
{indent(coco_text)}
        """
}}'''
    )


if __name__ == "__main__":
    main()
