"""The intent table: every kind of question the advisor answers, declared once.

Each intent says how it is recognised (its cues and the entities it needs), which handler answers
it (handlers.py: the tool calls and the writer), whether a follow-up that names no intent of its
own keeps it ("and the A5000?" after a fit question is a fit question), and which passages its
answer cites. The table's order is the precedence of recognition.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from advisor import rx
from advisor.agent import handlers as h
from advisor.agent import principles
from advisor.agent.query import Query
from advisor.agent.toolbox import ToolBox
from advisor.agent.understand import (
    HARDWARE_UNKNOWN,
    LEAVING,
    MADE_ASKED,
    TOPIC_WORDS,
    UNNAMED_ASKED,
    USED_ADJECTIVE,
    affirmed,
)

Detect = Callable[[Query, str], bool]


@dataclass(frozen=True)
class Intent:
    name: str
    label: str
    detect: Detect
    handler: Callable[[Query, ToolBox], h.Draft]
    keeps: bool  # a follow-up without a cue of its own keeps this intent
    cites: str  # topic: passages on the question | entities: on its GPUs and models | none
    early: Detect | None = None  # a cue strong enough to win before the table's order applies
    tools: tuple[str, ...] = ("search_corpus", "gpu_specs")  # offered to a model, in this order


def _cues(*patterns: str) -> re.Pattern[str]:
    """One pattern that matches any of the cue phrases (regular expressions)."""
    return re.compile("|".join(patterns))


_GPU_WORDS = _cues(
    r"\bgpus?\b",
    r"\bvram\b",
    r"\bcuda\b",
    r"\bnvidia\b",
    r"\bamd\b",
    r"\bgraphics\b",
    r"\bcards?\b",
    r"\bplacas? de v[ií]deo\b|\btarjetas? gr[aá]ficas?\b|\bgrafikkarten?\b|\bcartes? graphiques?\b",
    r"\btflops\b",
    r"\bhbm",
    r"\bgddr",
    r"\bnvlink",
    r"\btensor cores?",
    r"\bllms?\b",
    r"\bmodels?\b",
    r"\binference\b",
    r"\bfine-?tun",
    r"\btrain",
    r"\bquanti",
    r"\bgguf\b",
    r"\btokens?\b",
    r"\bcloud\b",
    r"\brent\b",
    r"\bdiffusion\b",
    r"\bwhisper\b",
    r"\bvllm\b",
    r"\bollama\b",
    r"\bmemory\b",
    r"\bbandwidth\b",
    r"\bbatch\b",
    r"\bcontext\b",
    r"\bepochs?\b",
    r"\bpytorch\b",
    r"\btensorflow\b",
    r"\bmac\b",
    r"\bapple\b",
    r"\bm\d (?:max|ultra|pro)\b",
    r"\brocm\b",
    r"\bdeep learning\b",
    r"\bmachine learning\b",
    r"\bml\b",
    r"\bai\b",
    r"\bcompute\b",
    r"\bh100",
    r"\ba100",
    r"\brtx\b",
    r"\bgeforce\b",
    r"\bfp\d+\b",
    r"\bprecision\b",
    r"\bhpc\b",
    r"\bsimulations?\b",
    r"\bnvidia-smi\b",
    r"\bflops\b",
    r"\btp\s?=?\s?\d|\btensor[- ]parallel\w*|\bpipeline[- ]parallel\w*|\bnccl\b|\binfiniband\b",
    r"\binterconnects?\b|\bpcie\b|\bquanti[sz]\w*",
)
# money spent, not time: "spend $2k", not "spend most of my day in pandas"
_SPEND = r"\bspend\b(?! (?:most|much|all|a lot|lots|hours?|days?|weeks?|time|my|our|the|half))"
# a story to write, not "a wire story" or "a success story"
_STORY = re.compile(
    r"(?<!wire )(?<!news )(?<!success )(?<!cover )(?<!press )\bstory\b"
    r"(?! short\b)"  # "long story short, ...", "to make a long story short"
)
_NOT_OURS = _cues(
    r"\bjoke\b",
    r"\b(?:write|draft|compose|polish|come up with) (?:me |us )?(?:a |an |my |our |some |a few "
    r"|\d+ |five |ten )?(?:\w+ ){0,2}(?:cover letter|motivation letter|essay|resume|cv"
    r"|wedding speech|love letter|captions?|(?:instagram|linkedin|facebook|blog|social media) "
    r"posts?|tweets?|slogans?|taglines?|ad copy|birthday (?:message|card)s?|toasts?)\b",
    r"\bpoem\b",
    r"\bsong\b",
    _STORY.pattern,
    r"\blimerick\b",
    r"\bhaiku\b",
    r"\bweather\b",
    r"\brecipe\b",
    r"\bstock (?:price|market)\b|\bshare price\b|\bshould i invest\b"
    r"|\b(?:amd|nvidia|nvda|intel|amzn|tsmc) (?:stock|shares)\b",
    r"\bbook (?:me|us)\b|\breserve (?:me|us)\b|\blaunch (?:me|us) an?\b",
    r"\bcovered (?:under|by) (?:the |its |their )?(?:\w+ ){0,2}warranty\b|\brma\b|\bcoil whine\b",
    # other peripherals to choose: "best mouse for valorant", "which keyboard", "a monitor for"
    r"\b(?:best|which|what|good|cheap|lighter|new) (?:gaming )?(?:mouse|mice|keyboard|headset"
    r"|headphones|webcam|microphone|mic|monitor|chair|mousepad)\b"
    r"|\b(?:need|want|buy\w*|get) (?:a |an |some )?(?:new |lighter |better |cheap )?"
    r"(?:gaming )?(?:mouse|mice|keyboard|headset|headphones|mousepad|gaming chair)\b",
    # a picture, a transcript or a text to produce, not a GPU to choose: "make me a picture of"
    r"\b(?:make|draw|generate|create|paint|render) (?:me |us )?(?:an? |some )(?:\w+ )?"
    r"(?:picture|image|drawing|photo|painting|logo|avatar|wallpaper)s? (?:of|for|with)\b",
)
# code to write is no GPU question, whatever GPU it names ("write me a script that pings me
# when a 3090 drops under $600")
_CODE_ASKED = _cues(
    r"\b(?:write|code) (?:me |us )?an? (?:\w+ ){0,2}(?:script|program|bot|app|scraper|function"
    r"|cron ?job|rule|pipeline|workflow|regex|dockerfile|makefile|sql query)\b",
    # "write me the full pytorch DDP training script", "generate the training loop code for DDP",
    # "only code pls"
    # (not "I don't write code": a person described; an object said, "me" or an article)
    r"(?<!n't )(?<!not )(?<!never )\b(?:write|generate|give me|produce|spit out|code up|type out) "
    r"(?:(?:me |us )(?:the |a |an |some |my |our )?|the |a |an |some |my |our )"
    r"(?:full |complete |whole |working |minimal |entire )?(?:[\w-]+ ){0,4}"
    r"(?:script|code|program|training loop|notebook)s?\b(?! (?:of|from) )",
    # "can you write a CUDA kernel for matrix multiply", "implement a triton kernel"
    r"\b(?:write|generate|implement|code up|give me) (?:me |us )?(?:an? |the |some )?(?:[\w+-]+ )"
    r"{0,2}(?:kernels?|shaders?|cuda code|host code)\b",
    r"\b(?:only|just) (?:the )?code\b|\bcode only\b",
    # configuration to write: "can help me write the docker-compose.yml and nginx config"
    r"\b(?:write|paste|generate|draft|give me) (?:me |us )?(?:the |a |an |my |our )?(?:\w+ ){0,2}"
    r"(?:docker-?compose(?:\.ya?ml)?|dockerfile|nginx (?:config|conf)|config(?:uration)? files?"
    r"|helm charts?|(?:k8s|kubernetes) (?:manifests?|yaml)|systemd (?:unit|service)s?"
    r"|terraform)\b",
)
# a figure of the job asked beside code to write: "..., will it fit?", "how fast would it be?"
_JOB_FIGURE_ASKED = re.compile(
    r"\b(?:will|would|does|can) (?:it|that|this|they) (?:even )?(?:fit|run|work|handle)\b"
    r"|\bhow (?:fast|slow|long|much (?:vram|memory))\b|\benough (?:vram|memory)\b"
)
# games: outside scope unless the message also speaks of ML ("a gaming laptop for ml work")
_GAMING = re.compile(
    # "the 4090 in gaming laptops": a kind of machine, not a game to play
    r"\bcyberpunk\b|\bgaming\b(?! (?:laptops?|notebooks?|pcs?|rigs?|desktops?|cards?|gpus?)\b)"
    r"|\bgames?\b|\bray tracing\b|\bpath tracing\b"
    r"|\b(?:graphics|game|video) settings\b|\bin-game\b|\bdlss\b|\bfsr\b"
)
# a ruling on export law asked, even of GPUs: "may we re-export H100 servers without a licence?"
_EXPORT_LAW = re.compile(
    r"\bre-?export\w*\b|\bexport (?:control|licen[cs]e|administration|rules?|restrictions?)"
    r"|\bexport\w* (?:\w+ ){0,2}(?:servers?|gpus?|chips?|hardware|systems?|[abh]\d{2,3}s?)\b"
    r".{0,60}\b(?:licen[cs]e|allowed|permitted|legal|lawful)\b"
    r"|\b(?:ear|itar)\b (?:rules|regulations)"
)
# crypto mining asked, not ML: "whats the hashrate of a 3070 on ETC"
_MINING = re.compile(
    r"\bhash ?rates?\b|\bmining (?:still )?(?:profit\w*|rewards?|income)\b|\bis mining\b"
    r"|\bmine (?:eth|etc|btc|bitcoin|crypto|monero|kaspa|ravencoin)\b"
    r"|\b(?:coin|crypto) to mine\b|\bmining pool\b|\bwhich pool\b|\bpool fees?\b"
)
_LEGAL_ASKED = re.compile(
    r"\blegally\b|\bfor legal\b|\blegal (?:advice|question|review)\b|\bis it legal\b"
    r"|\blawyers?\b|\battorneys?\b|\blicen[cs]e terms\b"
    # "draft a GDPR Article 28 clause": a document to write, a lawyer's job
    r"|\b(?:draft|write)\b[^.?!]{0,40}\b(?:clause|contract|agreement|dpa|nda|policy|letter)\b"
)
# "can our firm deduct the GPU workstation in full this year?": an accountant's question, whatever
# hardware it names
_TAX_ASKED = re.compile(
    r"\btax[- ]deductible\b|\bdeduct (?:it|the|that|this|them|those|our|my)\b"
    r"|\bwrite (?:it |them )?off (?:on|against) (?:our |my )?tax\w*|\bsection 179\b"
    r"|\bdepreciat\w* schedule\b|\bvat (?:back|refund)\b|\breclaim (?:the )?vat\b"
)
# house wiring asked ("what gauge cable for a 32 amp circuit run"): no GPU job, whatever verb
_WIRING = re.compile(r"\bgauge\b|\bbreakers?\b|\bcircuits?\b|\bampere\b|\bwiring\b|\belectrician\b")
_ML = re.compile(
    r"\b(?:ml|ai|llms?|models?|training|train|inference|deep learning|cuda|fine-?tun\w*|"
    r"diffusion|pytorch|tensorflow)\b"
)
# ML set aside: "not AI stuff, purely gaming", "nothing to do with ML"
_NOT_ML = re.compile(
    r"\b(?:not|no|nothing to do with|isn'?t|without) (?:for )?(?:any )?(?:ai|ml|llms?|machine "
    r"learning|deep learning)(?: (?:stuff|related|work|things|at all|involved))?\b"
)
# games named beside frame rates or refresh rates: "elden ring at 1440p 144hz", "warzone at 4k"
_GAME_NAMES = re.compile(
    r"\b(?:elden ring|warzone|fortnite|valorant|minecraft|gta ?(?:v|5|vi|6)?|starfield"
    r"|call of duty|apex legends|counter-?strike|cs2|league of legends|red dead|baldur'?s gate"
    r"|hogwarts legacy|alan wake|black myth|flight simulator|overwatch|pubg"
    r"|the witcher|witcher 3|stalker 2|forza|assassin'?s creed)\b"
)
_REFRESH = re.compile(r"\b\d{2,3} ?hz\b|\b\d{2,3} ?fps (?:in|on|at) (?:\d|ultra|high|max)")
_SQL = _cues(
    r"\bselect\s.+\sfrom\b",
    r"\bdrop\s+table\b",
    r"\binsert\s+into\b",
    r"\bdelete\s+from\b",
    r"\bunion\s+select\b",
    r";\s*--",
    r"'\s*or\s*'?1'?\s*=\s*'?1",
)
# an injection attempt, whatever card it names: "'; DROP TABLE gpus; --", "UNION SELECT password",
# "<script>alert('4090')</script>"
_INJECTION = re.compile(
    r"\bdrop\s+table\b|\bunion\s+(?:all\s+)?select\b|'\s*;\s*--|<\s*script\b|\bor\s+1\s*=\s*1\b"
)
# a message with nothing in it but a forum nudge or mail headers
_EMPTY_POST = re.compile(
    r"(?:\W*(?:re|fwd?|aw|wg|tr)\s?:|\W*\[?no subject\]?|\W*bump(?:ing)?|\W*\+1|\W*\^+"
    r"|\W*up(?:date)?\?*|\W*any(?:one|body)\?+"
    # a mail client's signature line alone: "Sent from my iPhone", "Get Outlook for Android"
    r"|\W*sent from my [\w ]{2,30}|\W*get outlook for \w+"
    # a chat app's stand-in for an attachment: "🎤 Voice message (0:47)", "<Media omitted>"
    r"|\W*(?:voice|audio|video) (?:message|note|clip)(?:\s?\(?\d{1,2}:\d\d\)?)?"
    r"|\W*<?(?:media|image|video|audio|sticker|gif|document) omitted>?"
    r"|\W*(?:attachment|sticker|photo|image)(?:\s?\(?\d+\)?)?)+\W*"
)
_GREETING = re.compile(  # one or more social phrases and nothing else
    r"(?:\W*(?:hi|hello|hey|yo|hiya|thanks|thank you|thx|ty|cheers|help|good (?:morning|evening)"
    r"|hallo|guten (?:morgen|tag|abend)|bonjour|salut|hola|buen(?:os|as) (?:d[ií]as|tardes)|ol[aá]"
    r"|bom dia|ciao|danke|merci|gracias|obrigad[oa]|how are you(?: doing)?|how's it going"
    r"|what can (?:you|it|this) do(?: for (?:me|us|an? [\w ]+?))?|first time (?:using|here)\w*"
    r"|who are you|what do you do|how does this work|great|awesome|perfect|cool"
    r"|nice|ok(?:ay)?|got it|that helped(?: a lot)?|that was helpful|much appreciated"
    r"|appreciate it)(?:\s+\w+)?\W*)+"
)
# a hello, or a question about the advisor itself, in a message that names nothing to compute:
# "yo whats good, just found this", "could you tell me what sorts of questions you can help with"
_HELLO = _cues(
    r"^\W*(?:hi+|hello+|hey+|yo+|sup|hiya|howdy|greetings"
    r"|good (?:morning|afternoon|evening|day))\b",
    r"^\W*(?:what'?s|whats) (?:up|good)\b",
)
_ABOUT_YOU = _cues(
    r"\bwhat (?:sorts?|kinds?|types?) of (?:questions|things|stuff)\b",
    r"\b(?:what|how) (?:can|could) you (?:help|do|answer)\b|\bare you able to help\b",
    r"\bwhat (?:all )?(?:things |stuff )?(?:can |could )?you (?:can |could )?(?:help|do) "
    r"(?:me |us )?with\b",
    r"\bwhat (?:is it|exactly|is it that) (?:that )?you do\b|\bwhat do you do\b",
    # "whats this bot do", "what does this thing do"
    r"\bwhat(?:'?s| does| is)? (?:this|the|your) (?:bot|assistant|thing|tool|app|advisor) "
    r"(?:do|for)\b",
    # a first message that only tries the line: "just testing if this thing works before I ask my
    # proper question", "I don't know what to ask yet, so I'm just saying hello"
    r"\bjust (?:testing|checking|trying)(?: (?:if|whether|that|to see if))? (?:this|it|you)\b"
    r"|\bbefore i ask (?:my|a|the|me) (?:\w+ )?question",
    r"\b(?:just|only) (?:saying|wanted to say|here to say|dropping in to say) (?:hello|hi|hey)\b",
)
# the advisor itself asked about: "who are you", "what can this bot help me with"
_WHO_YOU_ARE = re.compile(
    r"\bwho (?:are|r) (?:you|u)\b|\bwhat (?:can |could )?(?:this|the|your) (?:bot|assistant|tool"
    r"|advisor|app|thing) (?:can |could )?(?:help|do)\b"
)
_IS_THIS_YOU = re.compile(
    r"\b(?:is|are) (?:this|you) (?:the|a|that) (?:[\w-]+ ){0,3}(?:bot|assistant|advisor|adviser"
    r"|helper|tool|chatbot)\b"
    r"|\b(?:is this|am i (?:in|at)) the right (?:place|spot|bot|chat)\b"  # "the right place?"
    # "... ask thee owt about them graphics cards. is tha there?": anyone there, before a question
    r"|\b(?:is|are) (?:tha|thee|thou|you|anyone|anybody|someone|somebody) (?:there|about|around"
    r"|awake|online|listening)\s?\?"
    # "first time on here ... u there?", "you there?", "anyone home?"
    r"|(?:^|[.!,]\s?)(?:u|you|ya|anyone|anybody) (?:there|around|awake|online|home)\s?\?+\s?$"
)
# a question about who answers: "is this a real person or a robot?", "am I talking to a human?"
_PERSON_OR_BOT = re.compile(
    r"\b(?:is (?:this|that|it)|are you|am i (?:talking|speaking|chatting|writing) (?:to|with))"
    r" (?:a |an )?(?:real |actual |live )?(?:person|human|people|robot|bot|ai|machine)"
    r"(?: or (?:a |an )?(?:real |actual )?(?:person|human|robot|bot|ai|machine))?\b"
)
# any sign of a request in a message
_ASKS = _cues(
    r"\?|\b(?:what|how|which|why|when|where|can|could|should|would|will|does|do|is|are|need"
    r"|help|please|pls|want|tell|explain|fix|any ?one|idea)\b"
)
# a keyboard row mashed: "asdfghjkl", "qwerty"
_NOISE = re.compile(
    r"¯\\_\(ツ\)_/¯|\b(?:nan|null|none|undefined|0x[0-9a-f]+|lol|lmao|bruh|fr|ngl|smh|rs|k{3,}|(?:rs){2,}|(?:ha){2,}h?"
    r"|pog+(?:ers)?|kekw|lul|omegalul|xd+|gg+|ez"
    r"|(?:ja){2,}|(?:he){2,}|n[eé]h?)\b|\[object \w+\]"
    r"|\basdf\w*|\bqwer\w*|\bzxcv\w*|\blkj\w*|\bjkl\w*"  # keyboard rows
    # a terminal's arrow keys and an editor's commands typed into the box: "^[[A^[[B :wq!"
    r"|\^\[\[?[a-d0-9~;]*|(?<!\w):(?:wqa|wq|qa|q|x|w)!?(?!\w)"
)
_MASH = re.compile(r"\W*(?:[asdfghjkl;]{5,}|[qwertyuiop]{5,}|[zxcvbnm]{5,})\W*")
# one keyboard-row run with no vowel in a longer message: "sdfgh oops sorry, the cat", "hfgjdk 8x??"
_MASH_WORD = re.compile(
    r"\b(?:[asdfghjkl]*[sdfghjkl]{4}[asdfghjkl]*|[qwrtp]{5,}|[zxcvbnm]{5,})\b(?<=\w{5})"
)
_BUY = _cues(
    # ("buyer asking: how many tok/s?": someone buying from the user, no purchase of theirs)
    r"\bbuy(?!ers?\b)\w*",
    r"\b(?:first[- ]time|as a) buyer\b",
    r"\bcomprar\b|\bkaufen\b|\bacheter\b",  # Spanish/Portuguese, German, French
    r"\bcapex\b|\bwe own\b|\bown our own\b|\bowning\b",
    r"\bif (?:we|i) bought\b|\bbought (?:instead|outright|rather)\b",
    r"\bsh\w{1,4}d (?:i|we) by\b",  # "shoud i by": the typo survives the spelling fix
    r"\bpurchas\w*",
    r"\bbuilding a\b",
    r"\bbuild (?:a|my|our)\b",
    r"\bmsrp\b",
    r"\brrp\b",
    r"\blist price\b",
    r"\blaunch(?:ed)? (?:at|for|price)\b|\blaunch msrp\b|\bprice at launch\b",
    r"\b(?:cost|sold|sell|retail)\w* (?:for )?at (?:its |their |the )?(?:launch|release)\b",
    r"\bstreet price\b",
    # "what was its price when it came out", "unit price range for a new H200"
    r"\bprice\b.{0,25}\bwhen (?:it|they) (?:came out|launched|was released|were released)\b",
    r"\b(?:release|launch) price\b|(?:\bunit price\b|\bprice (?:range )?for a new\b)"
    r"(?![^.?!]{0,40}(?:hour|/h|\bhr\b|\binstance))",  # not "unit price per GPU-hour"
    r"\bupgrade to\b",
    r"\bworth (?:it|buying)\b(?!\W+(?:to )?rent)",  # not "worth it to rent an h100 ..."
    r"\bown (?:the|our|my)? ?hardware\b",
)
# a card bought or offered second-hand: a purchase question only when no fit or choice is asked
# ("found a used 3090 for $650, will that run a 70b": a fit question about that card)
_SECOND_HAND = _cues(USED_ADJECTIVE, r"\bsecond[- ]hand\b", r"\bebay\b")
# "what does NVLink actually buy us": what it gives, not a purchase
_BUY_IDIOM = re.compile(
    r"\bbuys? (?:us|you|me|them)\b(?! (?:an?|one|two|\d))"
    r"|\bdoes (?:that|this|it) buy\b"
    # "cloud credits can buy T4 or L4 instances": what money pays for, not a purchase
    r"|\b(?:credits?|budget|grant|money) (?:can|could|will|would) buy\b"
)
# a fit asked in so many words: "will that let me run", "can exllamav2 load", "does this OOM"
# "enough to run", "enough vram for", "enough to full finetune"
_ENOUGH_FOR = (
    r"\benough (?:(?:vram|memory) )?(?:to (?:full(?:y)? |properly )?(?:run|load|hold|serve|train"
    r"|fine-?tune)|for)\b"
)
_FIT_ASKED = _cues(
    r"\bfit\w*\b",
    r"\boom\b|\bout of memory\b|\bspill\w*\b",
    r"\b(?:will|would|can|could) (?:it|that|this|they|these|i|we|\w+) (?:\w+ ){0,2}?(?:let me |be"
    r" able to )?(?:run|load|hold|handle|serve|feed)\b",
    r"\bpossible to (?:run|fit|load|serve|hold)\b",
    r"\b(?:is|are) (?:that|it|this|these|they|\d+ ?gb)(?: (?:really|still))? " + _ENOUGH_FOR,
    # "is one H100 NVL (94GB) enough for llama 3.3 70b", "are two 3090s enough to run it"
    r"^\W*(?:is|are|would|will) (?:one|a|an|two|three|four|\d+|a single|my|our|the) [^?.!]{0,40}?"
    + _ENOUGH_FOR,
    r"\bwhether\b[^.?!]{0,60}?\b(?:runs?|fits?|loads?)\b (?:on|in|into)\b",
    # "can the model be held entirely in the card's memory?", "all of it on the graphics card",
    # "will the whole thing sit in vram"
    r"\b(?:held|kept|loaded|stored|sit|sits|stay|stays) (?:entirely |fully |completely |all )?"
    r"(?:in|on) (?:the |my |our |its |that |this )?(?:card'?s |gpu'?s )?(?:vram|memory|gpu"
    r"|graphics card|card)\b",
    r"\ball of it (?:on|in) (?:the |my )?(?:gpu|graphics card|card|vram)\b",
    # "can whisper and an 8B both stay loaded", "kept resident on the card"
    r"\b(?:stay|stays|staying|remain|be|kept|keep|sit) (?:both |all )?(?:loaded|resident)\b",
)
# two cards weighed against each other: "torn between the 4070 ti super and the 4080 super"
_TORN = r"\btorn between\b|\bcan'?t (?:decide|choose) between\b|\bdeciding between\b"
# "is it really as fast as", "'just as fast' as": a comparison, quotes and all
_AS_FAST_AS = r"\b(?:as|just as) (?:fast|good|quick)\W{0,2} as\b"
# one of several named GPUs asked for on speed or capability: "which one pushes more tok/s",
# "which finishes sooner", "is it really as fast as"; "which is cheaper" stays a money question
_CHOICE_ASKED = _cues(
    r"\bwhich (?:\w+ ){0,2}(?:pushes|gets|runs|finishes|trains|generates|serves|gives)\b",
    _AS_FAST_AS,
    r"\bfaster\b|\bsooner\b|\bquicker\b",
    r"\bmore (?:tok\w*|throughput|speed|capability|performance)\b",
    r"\bwhich (?:one |card |gpu )?has (?:more|higher|the (?:most|highest))\b|\bby how much\b",
    r"\bmatch(?:es)? the\b|\bkeeps? up with the\b",
    r"\bvs\.?\b|\bversus\b|\bcompare\w*|\bstacks? up\b",
    r"\bshould (?:we|i) (?:switch|move|migrate|go with|stick with)\b",
    # "deciding between a 3090 and a 4080 super with ~$1500 budget": the cards weighed
    r"\b(?:deciding|choosing|torn|picking|undecided|stuck) between\b(?! (?:that|it|this)\b)",
)
_MONEY_CHOICE = _cues(r"\bcheap\w*", r"\bexpensive\b", r"\bcosts? less\b", r"\bgrab\b", r"\bbuy\b")
# the money itself asked: "how much", "what would that cost", "the monthly bill"
# "what does a 4090 go for these days?" (not "what would you go for": a pick)
_GOES_FOR = (
    r"\bwhat(?:'s| (?:does|do|did|would|will|is|are))(?! (?:you|i|we|u)\b)[^?!.]{0,40}"
    r"\b(?:go|goes|going|sell|sells|selling) for\b|\bstreet price\b|\bgoing rate\b"
)
# "we measured 2500 tok/s: what's that per million output tokens?": a price per unit of work
_PER_UNIT_ASKED = (
    r"\bwhat(?:'?s| is| does| would)(?: that| it| this)?(?: come to| work out to| be| cost)?"
    r" (?:in \w+ )?per (?:1m|one million|a million|million|mil|m|1k|thousand|1,000) (?:output "
    r"|input |generated )?(?:tokens?|images?|requests?)\b"
)
_COST_ASKED = _cues(
    # not "how much is left for KV cache": memory
    r"\bhow much\b(?! (?:is |would be |will be )?(?:left|free|spare|remain\w*|room|headroom)\b)",
    r"\bwhat (?:would|will|does|did|do) (?:\w+ ){0,3}cost\b",
    r"\bwhat (?:would|will|does|did|do)\b[^?!]{0,80}\bcost (?:on|with|using|in|at|to)\b",
    r"\bcost (?:me|us)\b|\btotal cost\b|\bcost\?|\btco\b",
    r"\bbills?\b",
    r"\bset (?:me|us|you|them) back\b",  # "what would 40k GPU-hours set us back?"
    # "price per hour of an h200 vs b200", "hourly rate for an a100 vs h100?": the rents
    r"\b(?:price|cost|rate|rent)s? (?:per|an|a|by the) (?:gpu[- ])?hour\b",
    r"\bhourly (?:price|cost|rate|rent)s?\b",
    _GOES_FOR,
    _SPEND,
    _PER_UNIT_ASKED,
)
_RENT = _cues(
    r"\brent\w*",
    r"\balugar\b|\balquilar\b|\bmieten\b|\blouer\b",  # Portuguese, Spanish, German, French
    # (not a point cloud, a word cloud)
    r"(?<!point[- ])(?<!word[- ])(?<!tag[- ])\bcloud\b(?![- ]?(?:points?|compare)\b)",
    r"\bon[- ]demand\b",
    r"\blease\b",
    r"\brunpod\b",
    r"\blambda labs\b",
    r"\baws\b",
    r"\bgcp\b",
)
_RENT_OR_BUY = _cues(
    r"\bbreak[- ]?even\b",
    r"\bpays? (?:it )?off\b|\bpays? for itself\b",
    r"\bbuy or rent\b",
    r"\brent or buy\b",
    r"\bon[- ]?prem\w* (?:vs|or|versus)\b",
    r"\bvs\.? (?:cloud|renting)\b",
    # "buy the card for $450 or keep paying colab $10 a month? after how many months is buying
    # better"
    r"\bor keep (?:paying|renting|using)\b",
    r"\b(?:after|within|in) how (?:many|long)\b[^?]{0,40}\b(?:buy\w*|own\w*|purchas\w*)\b",
    # "... if i rent it" then "and if i buy it instead and run it 24/7 for 2 years"
    r"\bif (?:i|we) (?:buy|bought|own) (?:it|one|them|the card)\b[^.?!]{0,12}\binstead\b",
)
_BIGGEST_MODEL = _cues(
    r"\b(?:biggest|largest) (?:\w+ )?(?:model|llm)\b",
    # "what's the max model size i can run on 24gb", "maximum llm size for 16 gb"
    r"\b(?:max(?:imum)?|biggest|largest) (?:model|llm|param(?:eter)?) (?:size|count)\b",
    r"\bhow (?:big|large) (?:of )?an? (?:model|llm)\b",  # "how big a model can i run on 48gb"
    r"\b(?:biggest|largest) (?:llama|qwen|mistral|gemma|phi|deepseek|mixtral|falcon|olmo|yi)[\w.-]*"
    r"\s(?:i|we|you)\b",  # "the biggest llama i can run on 2x 4090"
    # "is 8gb vram enough for anything useful in local llm land": what that memory runs
    r"\b\d+ ?(?:gb|gigs?)\b.{0,20}\benough\b.{0,30}\b(?:anything|llms?|local (?:llm|ai|model)s?)\b",
    # "on an old 1080 ti, which models can i even run decently", "what llms can my 3060 run"
    r"\b(?:which|what) (?:(?:local |open |llm |ai )?models?|llms?)\b.{0,20}"
    r"\b(?:can|could|will|would)\b.{0,25}\b(?:run|fit|handle|load)\b",
    # "what can i run on a 3060 12gb", "the best model for coding that fits on a 3090"
    r"\bwhat (?:else )?can (?:i|we) (?:run|fit|load) on\b",
    # "which open source llm is best for a 16 gb card"
    r"\b(?:which|what)\s(?:open[- ]?source |open[- ]weights? |local )?(?:llm|model)s?\s"
    r"(?:is|are|would be)\s(?:the )?best\b(?=[^.?!]{0,25}\b(?:\d+\s?(?:gb|gigs?)|card|gpu|vram)\b)",
    r"\bbest (?:\w+ )?(?:model|llm)\b(?: for \w+)? (?:that |which |i can )?(?:fits?|runs?)\b",
)
_HOW_LONG = _cues(
    r"\bhow long\b",
    # "takes how many minutes?" (not "how many hours of audio a day", an amount of work)
    # ("how many hour it will take?", "how much hour need": the unit said in the singular)
    r"\bhow (?:many|much) (?:minutes?|hours?|hrs?|days?|weeks?)\b(?! (?:of|a|an|per|each|every)\b)",
    # "is that an overnight job or a week", "a weekend or a month?"
    r"\b(?:overnight|an? (?:hour|afternoon|evening|night|day|weekend|week))\b.{0,25}\bor "
    r"(?:an? |a whole )?(?:hour|afternoon|day|weekend|week|month)s?\b",
    r"\btime\s*(?:\+|and|&)\s*cost\b",
    r"\b(?:training|wall|total) time\b",
    r"\bhow much time\b",
    # "can i train resnet-50 on imagenet in under a day on 4 4090s?": a deadline to meet
    r"\b(?:in (?:under|less than)|within) (?:a|one|\d+) (?:day|days|hours?|weeks?|night)\b",
    # "transcribe 600 hours of audio by end of week: enough?": a job against a date
    r"\b(?:transcrib\w*|process\w*|generat\w*|embed\w*|render\w*|label\w*|caption\w*)\b"
    r"[^.?!]{0,80}\bby (?:the )?end of (?:the )?(?:day|week|month)\b",
    # "will that finish inside one colab session?", "would it complete within the free tier's
    # limit": the run's end asked against a span
    r"\b(?:will|would|does|can|could) (?:it|that|this|the (?:run|job|training|fine-?tune))"
    r" (?:\w+ )?(?:finish|complete|be done|end)\b[^.?!]{0,12}\b(?:inside|within|in|before|by)\b",
    # "i set 3000 steps. when will it be done", "when does the run finish"
    r"\bwhen (?:will|would|does|do|is) (?:it|this|that|the (?:run|job|training)) "
    r"(?:be )?(?:done|finish\w*|complete\w*|end)\b",
    # "150 epochs. whens it done", "when's the run gonna be finished"
    r"\bwhen(?:'?s| is) (?:it|this|that|the (?:run|job|training)) (?:gonna be |going to be )?"
    r"(?:done|finished|over|ready|complete)\b",
    r"\bhow (?:many|much) (?:hours|hrs|days|weeks|gpu[- ]hours|\w+ days)\b",
    # "trains it in about an hour on one node: is that plausible?": a time claimed, checked
    r"\b(?:in|within|under) (?:about |roughly |around |just |only )?(?:an?|one|\d+(?:\.\d+)?) "
    r"(?:hours?|days?|weeks?)\b[^?]{0,80}\b(?:plausible|realistic|possible|true|accurate)\b",
    r"\btime to (?:train|pre-?train|finish|transcribe|fine-?tune|process|generate|run|embed"
    r"|classify|caption|label|tag|index)\b",
    r"(?<!these )(?<!those )\bdays\?",
    r"\bweeks\?",
    r"\bwall[- ]?(?:clock|time)\b",
    r"\beta\b",
    r"\bgpu[- ]hours\b",
    r"\b[a-z]{1,3}\d{2,4}[a-z]?[- ]hours\b",  # "we were given 1000 A100 hours": GPU-hours to spend
    r"\b(?!these\b|those\b|some\b)\w+[- ]days\b",
    r"\b(?:hours|hrs|minutes|mins)\?",
    r"\bestimate\b",
    r"\b(?:ballpark|rough|approximate|total|overall) (?:time|duration)\b",
    r"\b(?:estimated|expected|likely|probable) (?:duration|run ?time)\b|\bduration\s*\?",
    # not "one user at a time?", "or am i wasting my time?"
    r"(?<!\bat a )(?<!\bat one )(?<!\bmy )(?<!\bour )(?<!\byour )\btime\s*\?",
    r"\bkitne (?:ghante|din|hours|days)\b|\bkitna (?:time|samay)\b",  # Hindi: "how many hours"
    r"\bwhat'?s the time\b|\bthe time then\b|\btime (?:for|to process|to do) \d",
    # "feasible within a month", "doable in 2 weeks", "done before the deadline in 10 days"
    r"\b(?:feasible|doable|possible|realistic|finish\w*|done)\b.{0,15}\b(?:within|in|under)\s"
    r"(?:a|one|two|three|\d+)\s(?:days?|weeks?|months?)\b",
    # "can a 3060 finish training yolov8n on coco in a weekend" (a week or a month said so is
    # also a job's span to cost: "finish 20000 images in a week, cost?")
    h.finish_by("weekend|night|evening"),
    # "whats the turnaround", "how quickly can 2 4090s finish a lora on a 13b"
    r"\bturn[- ]?around(?: time)?\b",
    r"\bhow (?:quickly|fast|soon) (?:can|could|will|would|does|do)\b[^.?!]{0,40}\b(?:finish\w*"
    r"|complete\w*|get through|be done)\b",
    # "what training duration should I reserve", "total runtime?" ("wie lange", "quanto tempo":
    # the phrasebook's "how long")
    r"\b(?:training|job|run|total|overall) (?:duration|run ?time)\b|\bruntime\s*\?",
)
_MONEY = _cues(
    r"\bcosts?\b",
    _PER_UNIT_ASKED,
    _GOES_FOR,
    r"\bset (?:me|us|you|them) back\b",
    r"\btco\b",
    r"\bcosting\b",
    r"\bprices?\b",
    r"\bpricing\b",
    r"\bbill\b",
    _SPEND,
    r"\$",
    # an amount in another currency, as the phrasebook writes it ("gbp 900", "650eur") or in words
    r"\b(?:eur|gbp|usd) ?\d|\d ?k? ?(?:eur|gbp|usd|quid|euros?)\b",  # ("5 pounds": a weight too)
    r"\bhow much (?:would|will|does|is|do|to)\b",
    # "$2/hr" and "per hour" are prices; "images/hour", "tokens per hour" are rates
    r"(?<!images )(?<!image )(?<!tokens )(?<!requests )(?<!samples )(?<!audio )"
    r"(?<!transcribe )(?<!process )(?<!through )(?<!handle )(?<!manage )(?<!do )\bper hour\b",
    r"(?<![a-z])/h(?:ou)?r\b",
    r"\brent\w*",
    r"\bcheap\w*",
    r"\bexpensive\b",
    r"\bdollars\b",
    r"\bhow much (?:reais|euros?|pounds?|rupees?|money)\b",
    r"\busd\b",
    r"\beur\b",
    r"\bbudget\b",
    r"\bhow much for\b",
    r"(?<![a-z])/h\b",
    # "how pricey is an h100 by the hour", "l4 hourly rate on gcp?", "whats the damage for an
    # a100 for a day", "what do i pay per month for an a10g"
    r"\bpric(?:ey|ier|iest|y)\b",
    r"\bhourly (?:rates?|prices?|costs?|charges?|fees?)\b",
    r"\b(?:rates?|fees?|charges?) (?:per|an|a|/) ?(?:hour|hr|day|month)\b",
    r"\bwhat(?:'?s| is) the damage\b",
    r"\b(?:what|how much) (?:do|would|will|does|did|should) (?:i|we|you|they|one) (?:pay|spend"
    r"|shell out|fork out)\b",
    # "api vs selfhost for 100M tokens per month": an API's bill against the GPUs'
    r"\bapi\b[^.?!]{0,15}\b(?:vs\.?|or|versus)\s?self[- ]?host\w*|\bself[- ]?host\w*[^.?!]{0,15}"
    r"\b(?:vs\.?|or|versus)\s(?:an? |the )?api\b",
)
_SPEED = _cues(
    r"\btok(?:ens?)?\s?(?:/|per)\s?s(?:ec(?:ond)?)?\b",
    # "how many hours of audio per hour", "transcribe per hour": a pace, not a price
    r"\b(?:hours? of )?audio (?:per|an|a|each) hour\b|\b(?:transcribe|process) per hour\b",
    # "how many hours of audio can a T4 chew through per hour?": a pace asked
    r"\bhow (?:many|much) (?:hours? of )?(?:audio|speech|recordings?)\b[^.?!]{0,50}\b(?:per|an|a|"
    r"each) (?:hour|minute|day)\b",
    r"\bt/s\b",
    r"\bit/s\b",
    r"\bits? per second\b",
    r"\b(?:images?|imgs?|samples?|sequences?|seqs?|frames?)\s?(?:(?:per|an?)\s|/\s?)(?:sec|second|"
    r"min|hour|hr)|\b(?:images?|imgs?|samples?|sequences?|seqs?|frames?)\s?/\s?s\b",
    r"\bs/it\b|\bsec(?:onds)?/it\b|\bs(?:ecs?)?/img\b",
    r"\bseconds? (?:per|an?) (?:image|it(?:eration)?)\b",
    r"\btok(?:en)?s? (?:par|por|pro) (?:seconde|segundo|sekunde)\b",  # French, Spanish, German
    r"\bhow fast\b",
    r"\bspeed\b",
    r"\b(?:decode|decoding|generation|token) rate\b",  # "what decode rate per request"
    r"\bthroughput\b",
    r"\blatency\b",
    r"\bttft\b",
    r"\btime to first token\b",
    r"\breal[- ]?time\b",
    r"\brtf\b",
    r"\busable\b",
    r"\bslow\b",
    r"\b(?:fast|quick|speedy|snappy) enough\b",
    r"\bhow quick\w*\b",
    r"\bseconds? per image\b",
    # "seconds per 1024x1024 picture", "secs for one render"
    r"\b(?:seconds?|secs?) (?:per|an?|for (?:one|an?|each)) (?:\d+\s?(?:x\s?\d+|px) )?"
    r"(?:image|img|picture|pic|render|icon|sprite|asset|photo|thumbnail)s?\b",
    r"\bhow many tokens\b",
    r"\bqps\b",
    r"\b(?:req|requests?)\s?(?:/|per|an?)\s?(?:s|sec|second)\b",
    r"\bsamples? per sec\w*\b",
    r"\b(?:samples?|seqs?|sequences?|items?|frames?)/s(?:ec)?\b",
    r"\bimg/s\b",
    r"\bimages/s(?:ec)?\b",
    r"\bsequences per second\b",
    r"\bper second\b",
    r"\bperformance\b",
    r"\b(?:images|tokens|epochs|pics) per (?:hour|minute|day)\b",
    r"\bhow many seconds\b",
    r"\bhow long (?:does|will|would) it take to generate\b",
    r"\bhow long (?:does|will|would) (?:\w+ ){0,4}(?:image|picture|step|token|sample|frame)s?"
    r" take\b",
    r"\bfps\b",
    r"\bframes? per second\b",
    r"\bsecs? (?:per|an?) (?:image|img|pic(?:ture)?)\b",
    r"\bwords? (?:per|an?|/) ?s(?:ec(?:ond)?)?\b",  # "how many words a second should it write"
    r"\b(?:tg|pp)\d*\s(?:numbers?|figures?|speeds?|rates?|scores?|results?)\b",  # llama-bench
    r"\b(?:tg|pp)(?:64|128|256|512|1024|2048)\b",
    r"\u30c8\u30fc\u30af\u30f3",
    r"/\u79d2",
    r"\bwie schnell\b",
    r"\bvitesse\b",
)
_RATE = _cues(  # "how many sdxl images per hour": a rate, though "per hour" sounds like money
    r"\bhow many (?:[\w.-]+ ){0,2}(?:images?|pics|pictures?|photos?|renders?|epochs?|tokens?"
    r"|samples?|steps?|frames?|requests?|sentences?|pages?|documents?|files?|clips?)"
    r"(?: [\w.-]+){0,3} (?:per|a|an|/|each) (?:sec\w*|minute|min"
    r"|hour|day)\b",
)
# a ratio said between two cards: "has over twice the memory of an H100", "2.4x the bandwidth"
_RATIO_WORDS = (
    r"\b(?:twice|thrice|double|triple|half)\b|\btimes (?:the|as much|more|less)\b"
    r"|\b\d+(?:\.\d+)?\s?x (?:the|as much|more)\b"
)
# the figures asked of each card, set side by side: "bw + tdp of both", "the two bandwidth
# figures", "how many GB per card" (outside writers call these comparisons, 76 cases to 1)
_EACH_ASKED = (
    r"\b(?:of|for|on) (?:both|each)\b|\bthe two (?:[\w-]+ )?(?:figures|numbers|values|specs)\b"
    r"|\bper (?:card|gpu|accelerator)\b"
)
# "which card", "which cloud instance type", "which one"
_WHICH_CARD = (
    r"\bwhich (?:\w+ ){0,2}(?:gpus?|cards?|one|accelerators?|instance(?: type)?|setup|hardware"
    r"|skus?)\b"
)
_COMPARE = _cues(
    r"\bvs\.?\b",
    # "how many 4090s to match one h100": one card as a multiple of the other
    r"\bhow many [\w.-]+ (?:\w+ )?(?:to|would it take to|does it take to) (?:match|equal"
    r"|replace|beat|keep up with)\b",
    _TORN,
    r"\bversus\b",
    r"\bcompare\w*\b",
    r"\bcomparison\b",
    r"\bor\b",
    r"\bbetter\b",
    r"\bfaster\b",
    _AS_FAST_AS,
    r"\bdifference\b",
    r"\bdiffer\b",
    r"\bline (?:\w+ )?up\b",
    r"\bwhich\b",
    r"\bagainst\b",
    r"\bswap\b",
    r"\bupgrad(?:e|es|ed|ing)\b",
    r"\bbeats?\b",
    r"\bthan\b",
    r"/",
    r"\b(?:for|of|in) (?:both|each)\b",
    r"\bside[- ]by[- ]side\b",
    # "quelle carte entre une L40S et une A100" (the phrasebook's "between"), "la A100 o la H100"
    r"\bbetween\b|\bo la\b|\bou\b",
    r"\bthe other\b|\bfor the extra (?:money|cost|cash)\b",  # "one quotes X, the other Y"
    r"\bworth\b[^.?!]{0,40}?\bover (?:an?|the|my)\b",  # "worth the savings over a 4090?"
    _RATIO_WORDS,
)
_RECOMMEND = _cues(
    _WHICH_CARD,
    # "what jetson should the robot carry", "which mac should we get"
    r"\b(?:what|which) (?:[\w-]+ ){1,2}should (?:i|we|the \w+|my \w+|our \w+) (?:get|buy|pick|use"
    r"|carry|choose|take|go with)\b",
    r"\bwhat (?:\w+ )?(?:gpus?|cards?|hardware|setup|instance)\b",
    r"\bbest\b",
    r"\brecommend\w*",
    r"\bsuggest\w*",
    # "..., want qwen 32b fully in vram. card?": the card asked in one word at the end
    r"(?:^|[.,;:!?]\s*)(?:which |what )?(?:card|gpu)s?\s?\?+\s*$",
    r"\bshould (?:i|we) (?:get|use|pick|go)",
    r"\bwhat should (?:i|we) (?:buy|purchase)\b",
    # "smallest instance family that holds it", "cheapest machine type that fits"
    r"\b(?:smallest|cheapest|lowest)[- ](?:\w+ )?(?:instance|machine|vm|node)s?"
    r"(?: family| type| size)?\b(?! specs?\b| requirements?\b)",
    r"\bwhat (?:can|could|should) (?:i|we) (?:run|use|get)\b",
    r"\bgood (?:choice|option|gpu|card)\b",
    r"\b(?:decent|solid|reasonable|affordable|sensible) (?:gpu|card|graphics card)s?\b",
    # "quiet gpu for a home office running ollama", "a low-power card for ...": a card wanted,
    # by a quality it must have
    r"^\W*(?:a |an )?(?:quiet|silent|fanless|cool|low[- ]power|efficient|compact|small|cheap|budget"
    r"|single[- ]slot|low[- ]profile)(?: \w+)? (?:gpu|card|graphics card)s? for\b",
    r"\bcheapest (?:gpu|card|way|option|setup)\b",
    r"\b(?:smallest|cheapest|lowest)[- ](?:vram|memory|priced|power)[- ](?:gpu|card)s?\b",
    # "what's the smallest single gpu that runs it at q4"
    r"\b(?:smallest|weakest|least powerful|lowest[- ]end) (?:single |one )?"
    r"(?:gpu|card|graphics card)s?\b",
    r"\bwhat do (?:i|we) need\b",
    r"\bhardware (?:to|for) (?:host|self-host|run|serve|deploy)\b",
    r"\bwhat would (?:you|i)\b",
    r"\bwould you (?:pick|choose|go with|get|buy|put)\b",
    r"\bwhich (?:[\w-]+ ){0,5}(?:qualif\w*|meets? (?:th(?:is|ese|at)|the|our))\b",
    r"\bwhich (?:jetson|mac|macbook|radeon|geforce|rtx|quadro|instinct|nvidia|amd|apple)s?\b",
    r"\bwhat should (?:i|we) (?:put|move|switch) (?:\w+ )?(?:on|to)\b",
    r"\bneed (?:a|an|some) (?:gpu|card)\b",
    r"\benough for\b",
    r"\bminimum (?:gpu|hardware|requirements?)\b",
    r"\bhow much (?:vram|memory|gpu memory|unified memory|ram|gpu) (?:do|would|will|does|is)\b"
    r".{0,30}\bneed",
    r"\bwhat (?:can|could|should) (?:i|we) \w+ (?:run|use|get)\b",
    r"\bcheapest \w+ (?:gpu|card|way|option|setup|instance)\b",
    r"\bneed (?:a )?gpus?\b",
    r"\bwhat would it take\b",
    r"\bwhat should (?:i|we) (?:be )?(?:looking at|look at|consider\w*|go for)\b",
    r"\b(?:most|best|cheapest) (?:vram|memory|gb|performance|tok(?:ens)?/s) per (?:dollar|\$|buck)",
    r"\bneed something\b.{0,60}\b(?:for|that|to)\b",
    r"\bwelche (?:gpu|grafikkarte|karte)\b|\bqu[eé] (?:gpu|tarjeta)\b|\bquelle (?:gpu|carte)\b",
    r"\b(?:qual|que|quais) (?:placa|gpu|placa de v[ií]deo)s?\b",  # "qual placa vale a pena"
)
_WHAT_CAN_RUN = _cues(
    r"\bwhat (?:can|could) (?:i|we) (?:\w+ )?run\b",
    # "best local model for roleplay on a 3080": a model for the card, not a verdict on it
    r"\b(?:best|which|what) (?:\w+ ){0,2}(?:models?|llms?) (?:for|to|can|could|should|i can)\b",
)
_STRONG_COMPARE = _cues(
    r"\bvs\.?\b",
    # "how many 4090s to match one h100": one card as a multiple of the other
    r"\bhow many [\w.-]+ (?:\w+ )?(?:to|would it take to|does it take to) (?:match|equal"
    r"|replace|beat|keep up with)\b",
    r"\bversus\b",
    r"\bcompare\w*\b",
    r"\bcomparison\b",
    r"\bstacks? up\b",
    # "do I swap the 4090 for a 5090?", "upgrade my 3090 to a 4090, worth it?"
    r"\b(?:swap\w*|replac\w*|upgrad\w*|trad\w* in|sell\w*)\b[^.?!]{0,30}\b(?:for|to|with)\b",
)
_WHY = _cues(
    r"^\W*why\b",
    r"^\W*how (?:does|do)\b(?!.{0,40}\b(?:stacks? up|differ|compare)\b)",
    r"^\W*explain\b",
    r"^\W*eli5\b",
    r"\b(?:explain|tell me) why\b",
    r"\b(?:can|could|would) (?:someone|somebody|you|anyone) (?:please )?explain\b"
    r"(?! (?:whether|if)\b)",
    r"\bwhere does (?:that|this|the) (?:number|figure|rule)\b",
)
_EXPLAIN = _cues(
    r"^\s*(?:why|how (?:does|do|is|are)|explain|eli5)\b",
    r"\bwhat (?:does|do) .{1,30} (?:do|mean)\b",
    r"\bwhy (?:does|do|is|are|would)\b",
    r"\bexplain\b",
    r"\bdifference between\b",
    r"\bwhat'?s (?:the |the actual |actually the )?difference\b",
    r"\bwhat(?:'?s| is| are) (?:the )?(?:point|deal|benefit|advantage)",
    r"\bactually a thing\b",
    r"\bmatter\b",
    r"\bhelp\w*\b",
    r"\bimportant\b",
    r"\bnecessary\b",
    r"\bdo (?:i|you|we) need (?:nvlink|ecc|hbm)\b",
    r"\bwhat is (?:an? )?(?:hbm|gddr|nvlink|mig|tensor core|kv cache|quanti[sz]ation|fp8|tf32|bf16"
    r"|sparsity|ecc|rocm|cuda|flash)",
    r"\bwhat's (?:an? )?(?:hbm|gddr|nvlink|mig|tensor core|kv cache|quanti[sz]ation|fp8|tf32|bf16"
    r"|sparsity|ecc|rocm|cuda|flash)",
    r"\bwhat do (?:people|they|you|folks) mean by\b|\bmeaning of\b|\bwhat does \w+ stand for\b",
)
_SCRIPTS = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\u0400-\u04ff]")


# a question about CPUs, not GPUs: "best cpu for running llms? threadripper or epyc"
_CPU_ONLY = re.compile(r"\b(?:best|which|what) cpu\b|\bthreadripper\b|\bepyc\b|\bxeon\b")


def _llm_on_cpu(q: Query) -> bool:
    """An LLM or Whisper run on the CPU alone ("no GPU, a Threadripper with 128 GB: llama 3 70B
    Q4?", "do I even need a GPU for whisper small?"): the calculator's, on system RAM."""
    return q.cpu_only and any(m.family in (None, "llm", "speech") for m in q.models)


def _entities(q: Query) -> bool:
    return bool(q.gpus or q.models or q.memory_gb)


# ---------------------------------------------------------------- recognisers


def _invalid(q: Query, low: str) -> bool:
    if _EMPTY_POST.fullmatch(low):
        return True  # "bump", "RE: RE: FW: [no subject]": a forum nudge or an empty mail
    if not rx.search(r"[^\W_]", low) or (_MASH.fullmatch(low) and not _entities(q)):
        return True  # emoji, punctuation, a keyboard row
    if _MASH_WORD.search(low) and not (_entities(q) or q.workload_given or q.topic):
        return True  # a keyboard row among a few words, nothing about GPUs or models named
    if not rx.search(r"[^\W\d_]{2,}", _NOISE.sub(" ", low)) and not _entities(q):
        return True  # "¯\_(ツ)_/¯ ?????? 0x0000 NaN NaN": a shrug and placeholders, no word
    if "\n" in low.strip() and not _entities(q) and not _ASKS.search(low):
        return True  # a pasted table or log and nothing asked of it
    if _INJECTION.search(low) and not rx.search(
        r"\b(?:how|what|which|why|can|does|is)\b[^;'<]*\?", low
    ):
        return True  # "'; DROP TABLE gpus; -- SELECT ... '%4090%'": an injection, a card inside
    return bool(_SQL.search(low)) and not _entities(q)


def _greeting(q: Query, low: str) -> bool:
    if _GREETING.fullmatch(low):
        return True
    if (_IS_THIS_YOU.search(low) and not _entities(q) and not q.workload_given
            and not rx.search(r"\b(?:which|what|how|whether|to ask)\b", low)):  # fmt: skip
        return True  # "good morning!! is this the gpu helper bot my colleague told me about?"
    if (_PERSON_OR_BOT.search(low) and not _entities(q)
            and not _GPU_WORDS.search(_PERSON_OR_BOT.sub(" ", low))):  # fmt: skip
        return True  # "hello!! is this a real person or a robot? I've no idea what I'm doing"
    if (_WHO_YOU_ARE.search(low) and not _entities(q) and not q.workload_given and not q.topic
            and not q.fields):  # fmt: skip
        # "who are you and what can this bot help me with? they said it knows GPU matters": the
        # advisor itself asked about, its subject named beside it
        return True
    named = _entities(q) or q.workload_given or q.topic or _GPU_WORDS.search(low)
    if named or _NOT_OURS.search(low):
        return False
    short_hello = _HELLO.search(low) and len(low.split()) <= 12 and "?" not in low
    return bool(short_hello or _ABOUT_YOU.search(low))


# a ruling asked, not a fact about the cards the rules made: "may we ship them to ...?"
_RULING = re.compile(
    r"\b(?:allowed|permitted|legal\w*|lawful|licen[cs]\w*|compl(?:y|iance|iant)|violat\w*"
    r"|sanction\w*|embargo\w*|affected|restrict\w*|bann?ed|ban)\b"
    r"|\b(?:may|can|could) (?:we|i|our(?: \w+){1,2}) (?:still )?(?:ship|sell|send|export|move|buy"
    r"|get|import|order|purchase)\b|\bunder (?:the |these |those )?(?:\w+ ){0,2}(?:rules|controls"
    r"|regulations)\b"
)


# the makers' shares asked of, not their cards: "which stock should i buy nvidia or amd"
_SHARES_ASKED = re.compile(
    r"\b(?:stocks?|shares|share price|stock price|invest(?:ing|ment)? in|market cap|ticker|nvda"
    r"|amd stock|dividends?|portfolio)\b"
)


def _out_of_scope(q: Query, low: str) -> bool:
    if _EXPORT_LAW.search(low) and (not q.gpus or _RULING.search(low)):
        return True  # not "for a piece on export controls: what differs between H800 and H100?"
    if _MINING.search(low) and not q.models and not _ML.search(low):
        return True
    if _CODE_ASKED.search(low) and not q.models:
        return True  # "write me a regex that matches gpu names", "write me a dockerfile for vllm"
    if q.fields and q.gpus and not _CODE_ASKED.search(low):
        return False  # "titan rtx fp64 throughput? for a physics sim": a datasheet figure
    ml_said = _ML.search(_NOT_ML.sub(" ", low))
    played = _GAMING.search(low) or (
        _GAME_NAMES.search(low)
        and (_REFRESH.search(low) or rx.search(r"\b(?:1080|1440|2160)p\b|\b4k\b|\bfps\b", low))
    )
    if (played and not ml_said and not any(m.ids for m in q.models)
            and not (q.gpus and (q.purchase_usd or q.condition))):  # fmt: skip
        # "is the 5090 good for cyberpunk at 4k" (not "a used 3090, only used for gaming, £600:
        # what do they go for?": the card's past, its price asked)
        return True
    hardware = rx.search(r"\bgpus?\b|\bcards?\b|\bvram\b|\bhardware\b", low)
    if _LEGAL_ASKED.search(low) and not q.gpus and not q.models and not hardware:
        return True  # "does a BAA make it OK under HIPAA?": a lawyer's question, not a GPU's
    if _TAX_ASKED.search(low) and not q.models and not q.fields:
        return True  # "can we deduct that GPU workstation this year?": an accountant's
    if _SHARES_ASKED.search(low) and not q.models and not q.gpus:
        return True  # "which stock should i buy, nvidia or amd": an investor's question
    # (a workload read from a word alone, "a 32 amp circuit run 25m to the shed", "a prediction
    # for my column", is no ML job unless GPUs, ML, serving or power are spoken of)
    job = (
        q.workload
        and (
            q.workload != "inference"
            or _GPU_WORDS.search(low)
            or _ML.search(low)
            or rx.search(
                r"\bserv(?:e|es|ing)\b|\bdeploy\w*|\bhost\w*|\bwatts?\b|\bkwh\b|\bpower\b"
                r"|\belectric\w*|\bfps\b|\bframes?\b|\bassistant\b",
                low,
            )
        )
        and not (_WIRING.search(low) and not _GPU_WORDS.search(low))
    )
    if _entities(q) or job or q.topic:
        return bool(
            # a joke asked for, not "or is 6GB a joke": a figure of speech beside a real question
            (
                # (not "a song-request bot on llama 3.1 8b: can my 3060 keep up?": a model run
                # on a card is the job, whatever it writes)
                not (any(m.ids for m in q.models) and q.gpus)
                and rx.search(
                    r"\b(?:joke|poem|song(?! school| ?book| list| service)|limerick"
                    r"|(?<!claude )(?<!claude-)haiku)\b",
                    low,
                )  # (not "the song school")
                and not rx.search(r"\b(?:is|was|are|'s) (?:\w+ )?an? (?:\w+ )?joke\b", low)
            )
            or _STORY.search(low)
            # (not "write a script that runs llama 3 8b on my 3060, will it fit?": the fit asked)
            or (
                _CODE_ASKED.search(low)
                and not (any(m.ids for m in q.models) and q.gpus and _JOB_FIGURE_ASKED.search(low))
            )
            or (_NOT_OURS.search(low) and not q.models and not _ML.search(low))
            # (an LLM on the CPU alone, no GPU, is the calculator's: llama.cpp on system RAM)
            or (_CPU_ONLY.search(low) and not q.gpus and not _llm_on_cpu(q))
        )
    if q.seconds_per_item and (q.steps or q.epochs or q.audio_hours or q.images):
        return False  # "each step takes 1.2 s, 50,000 steps: how long?": the user's own pace
    if _SCRIPTS.search(low):
        return False  # another script: the entities decide, not English cues
    if q.precision and not _NOT_OURS.search(low):
        return False  # "what does q4 mean??": a number format is a question of ours
    if UNNAMED_ASKED.search(low) and not _NOT_OURS.search(low):
        return False  # "will it fit?" with nothing named: which model and card is asked back
    return not _GPU_WORDS.search(low) or bool(_NOT_OURS.search(low))


def _rent_or_buy(q: Query, low: str) -> bool:
    # each cue not negated ("buying, not renting"); a rental price said before counts as renting
    # ("would buying one make more sense" after "I rent an A100 at 1.60/hr")
    renting = bool(affirmed(_RENT, low)) or bool(q.user_price_usd_per_hour and q.follow_up)
    renting = renting or bool(q.monthly_usd and q.gpus)  # "we pay $16k a month for 8 h100s"
    # "run an h100 24/7 on lambda vs buying one": a cloud named is renting there
    renting = renting or bool(q.providers and q.location == "cloud")
    # ("in case we end up buying one for the rack": a purchase that may come later, not weighed)
    low_bought = _BUY_IDIOM.sub(" ", _MAYBE_LATER.sub(" ", low))
    bought = affirmed(_BUY, low_bought) or (q.purchase_usd and _CHEAPER.search(low))
    both = bool(bought) and renting  # "costs $1,800 here, or rent one: which is cheaper?"
    if _job_timed(q, low):
        return False  # "150 epochs: how long on my 4070 Ti vs renting an A100?": the job's time
    return bool(both or _RENT_OR_BUY.search(low))


_MAYBE_LATER = re.compile(
    r"\b(?:in case|if ever) (?:we|i) (?:ever )?(?:end up |decide to )?buy\w*\b[^.?!]*"
)


def _job_timed(q: Query, low: str) -> bool:
    """A sized job's time asked, no price said: "how long on my 4070 Ti vs renting an A100"."""
    sized = q.images or q.dataset_samples or q.train_tokens or q.audio_hours
    priced = q.purchase_usd or q.user_price_usd_per_hour or rx.search(r"\bbreak[- ]?even\b", low)
    return bool(sized and asks_how_long(low) and not priced)


# a price to buy set against renting: "costs $1,800, or rent one?", "cheaper to rent instead?"
_CHEAPER = re.compile(
    r"\bcheaper\b|\bworth\b|\bmakes? (?:more )?sense\b|\bbetter\b|\binstead\b|\bvs\b|\bversus\b"
    r"|\bsmart(?:er|est)?\b|\bwis(?:e|er|est)\b|\balternatives?\b|\brather\b"
    r"|\bor rent\w*|\bor (?:should|do|would|could|shall|must) (?:i|we) (?:just )?rent\w*"
)


def _break_even(q: Query, low: str) -> bool:
    """ "Where's the break-even?", "would buying pay off within a year": rent or buy, whatever
    else the question compares."""
    return bool(_RENT_OR_BUY.search(low)) and not _job_timed(q, low)


def _new_card_asked(q: Query, low: str) -> bool:
    """One card named, the user's own to leave, and a card to get asked."""
    return len(q.gpus) == 1 and bool(LEAVING.search(low)) and bool(_RECOMMEND.search(low))


# a card's figure asked in plain words: "how much memory it has", "how many watts it uses"
_HOW_MUCH_OF_IT = re.compile(
    r"\bhow (?:much|many) (?:memory|vram|gb|watts?|power|bandwidth|tflops)\b(?! (?:do|does|will"
    r"|would|should) (?:i|we|you|it) need)"
)


def _buy(q: Query, low: str) -> bool:
    if _bill_asked(q, low) and q.draw_w:
        return False  # "..., and if it draws 400 W 8 hours a day at 14c/kWh, the bill?": power
    if _new_card_asked(q, low):
        return False  # "upgrading from my 2070 super: what should i get": a recommendation
    said_models = [m for m in q.models if not m.assumed]  # ("for LLM": a model stands in)
    if (
        q.fields
        and q.gpus
        and not (q.budget or said_models or q.purchase_usd or q.workload_given)
        and not _PRICE_ASKED.search(_questions(low))  # "what does apple charge for it?"
    ):
        return False  # "buying a second 4090, does nvlink work between them": a datasheet fact
    if (
        q.fields
        and _named_cards(q) >= 2
        and rx.search(r"\bline (?:\w+ )?up\b|\b(?:of|for) the two\b", low)
        and not _PRICE_ASKED.search(_questions(low))
    ):
        return False  # "a new 5070 Ti or a used 3090: line up the VRAM of the two": compared
    if (
        q.fields
        and q.gpus
        and (q.purchase_usd or q.budget)
        and not (q.models or q.workload_given)
        and not _PRICE_ASKED.search(_questions(low))
        and not _BUY_JUDGED.search(low)
    ):
        return False  # "got a used Titan V for $300: its fp64 rate?": the price paid is a story
    if _each_figure(q, low) and not _PRICE_ASKED.search(low):
        return False  # "they're $60-170 used: need vram + bandwidth of both": the figures
    if (q.fields and q.gpus and not (q.budget or q.purchase_usd)
            and (_FIELD_QUESTION.search(_questions(low)) or _HOW_MUCH_OF_IT.search(low))
            and not _PRICE_ASKED.search(_questions(low))
            and not rx.search(r"\bbuy\w*|\bpurchas\w*|\border\w*|\bworth\b|\bpric\w*|\bcost\w*"
                              r"|\$|\bdeal\b", low)):  # fmt: skip
        return False  # "building a plant monitor on a Jetson: how much memory has it?": figures
    if (q.fields and _named_cards(q) >= 2 and rx.search(_EACH_ASKED, low)
            and not (q.budget or q.purchase_usd or _PRICE_ASKED.search(low))):  # fmt: skip
        return False  # "a used 3090 or an A6000 for SDXL? memory and power for each": compared
    if (
        not q.gpus
        and not _PRICE_ASKED.search(low)
        and (q.models or q.workload_given or q.budget or _RECOMMEND.search(low))
    ):
        return False  # "$1,000 cap, which card should I buy?": no card named, a recommendation
    return _buy_asked(q, low)


# a price found, judged: "a fair price?", "overpriced?", "a ripoff?"
_PRICE_JUDGED = (
    r"\b(?:fair|good|reasonable|decent|ok|okay) (?:price|deal)\b|\boverpriced\b|\brip[- ]?off\b"
    r"|\bfleeced\b|\bripped off\b|\bscam\b|\bhighway robbery\b|\b(?:is|was) (?:that|it|this)"
    r" (?:a )?(?:robbery|daylight robbery|steal|bargain)\b"
    r"|\b(?:robbery|a steal|a bargain) or (?:normal|fair|ok|okay|reasonable)\b"
    # "my mate wants $400 for his 3080, should i?", "take it?": a price offered, judged
    r"|\bshould (?:i|we)\s?(?:[?!]|$|take it|go for it)|\b(?:take|grab) it\s?\?"
)
# a price to buy a card at, judged in a word: "$900 for a 4080 super, fair?", "700 quid for his
# 3090, ok?" (only beside a sum said for the card)
_QUOTE_JUDGED = (
    r"(?:^|[,.:;!-]\s?|\b(?:is|was) (?:that|it|this) )(?:fair|good|reasonable|decent|ok|okay"
    r"|alright|legit|too much|too high|a steal|steep|worth it|thoughts)\s?(?:\?|,\s?and\b)"
)  # ("is that fair, and how much memory does it have?": judged, then a figure asked)
# what a card costs to buy, asked: "how much is a 5090", "what did it cost at launch"
_PRICE_ASKED = _cues(
    r"\bhow much (?:is|are|does|do|did|would|will|for)\b"
    r"(?! (?:the |its |their )?(?:vram|memory|gpu memory|memory bandwidth|bandwidth))",
    r"\bwhat(?:'s| is| was| are)? (?:the |a |its |their )?(?:\w+ ){0,2}prices?\b",
    r"\bprice (?:range|today|now)\b",
    r"\bmsrp\b|\brrp\b|\bcost(?:s|ed)?\b(?! (?:me|us) more)",
    r"\b(?:what|how much) (?:does|do|did|would) (?:[\w-]+ ){1,3}charge\b",  # "apple charge for"
    r"\bgoing (?:rate|for)\b|\bsells? for\b|\bgood (?:deal|buy)\b",
    # "whats a 4090 go for new these days"
    r"\bwhat(?:'?s| is| does| do| would| will)? (?:an? |the |one |it )?(?:[\w-]+ ){0,3}"
    r"go(?:es)? for\b",
    r"\bin line with (?:the )?market\b|" + _PRICE_JUDGED,
)


# a purchase judged or asked in other words than a price: "worth it?", "should I buy it", "good
# deal", "can I buy one"
_BUY_JUDGED = re.compile(
    r"\bworth\b|\bbuy\w*|\bdeal\b|\bpurchas\w*|\bshould (?:i|we) (?:get|grab)\b"
    # "offered to sell us his 3060 for £150: is that fair, and its memory?"
    r"|\b(?:is|was) (?:that|it|this) (?:a )?(?:fair|reasonable|sensible)\b"
    r"|\b(?:fair|sensible) price\b|\brip[- ]?off\b|\boverpriced\b|\brobbery\b|\bscam\b"
)


def _buy_asked(q: Query, low: str) -> bool:
    worth = q.purchase_usd and q.gpus and rx.search(r"\bworth (?:it|buying|the money)\b", low)
    if (_advice(q, low) and not worth
            and not rx.search(r"\b(?:buy|purchas)\w*|" + _PRICE_JUDGED, low)):  # fmt: skip
        return False  # "a P40 for $200 on ebay: any good for training?": the judgement first
    low = _without_price_levels(q, low)  # "they cost about the same used"
    if _named_cards(q) >= 2 and (
        _choice(q, low) or rx.search(_TORN, low)
    ):  # "torn between ...: worth it?"
        low = rx.sub(r"\bworth (?:it|buying)\b", " ", low)
    if h.formats_weighed(q):  # "is fp8 worth it over bf16 for llama 8b on an h100": a format's
        low = rx.sub(r"\bworth (?:it|buying)\b", " ", low)  # worth, not a purchase
    if q.purchase_usd:  # "one card purchased at 7,500 USD: the TCO?": a price paid, said
        low = rx.sub(r"\b(?:purchased|bought)\b(?: \w+){0,2} (?:at|for)\b", " ", low)
    # "is that enough to run it, or do I need to buy something?": the fit decides the purchase
    asked = _OR_BUY.sub(" ", _questions(low))
    if q.models and asked.strip() and _FIT_ASKED.search(asked) and not _BUY.search(asked):
        return False  # "before we sign the purchase order: does the model fit?": a fit
    if affirmed(_BUY, _BUY_IDIOM.sub(" ", low)):
        return True
    if q.gpus and _PRICE_ASKED.search(low) and _SHOP_PRICE.search(low) and not _HOURLY.search(low):
        return True  # "the launch price of the 3060 12gb?", "how much is the DGX Spark? to budget"
    if (q.models and _FIT_ASKED.search(low)) or _choice(q, low):
        return False  # a price or "used" beside a fit or a choice between named cards
    if _OWNED.search(low) and not _PRICE_ASKED.search(low):
        return False  # "I have bought a used Mac Studio: how many tokens/s?": bought already
    quoted = q.purchase_usd or (q.budget and q.budget.per == "total" and q.budget.kind != "rent")
    if q.gpus and quoted and rx.search(f"{_PRICE_JUDGED}|{_QUOTE_JUDGED}", low):
        return True  # "my mate wants $400 for his 3080, should i?", "$900 for a 4080, fair?"
    return bool(_SECOND_HAND.search(low)) or bool(q.budget and q.budget.kind == "buy")


# a price in a shop, not by the hour: "launch price", "the shopkeeper says", "to budget it"
_SHOP_PRICE = re.compile(
    r"\blaunch\b|\bretail\b|\bshop\w*|\bstore\b|\bstreet price\b|\bmsrp\b|\brrp\b"
    r"|\bbudget (?:it|for it|for one|for them)\b|\bsticker\b|\blist price\b"
    r"|\bbom\b|\b\d+ units\b|\bthese days\b|\bnowadays\b"  # "a BOM number for 20 units"
    r"|\breseller\b|\bvendor\b|\bquotes?d?\b|\bmarket\b|\bfor an? (?:new|used|second-?hand)\b"
    r"|\bcharges? for\b"  # "what does apple charge for the mac studio"
    r"|\bfor (?:local|home|my (?:pc|build|rig|desktop))\b|\bat home\b|"  # to own, at home
    + _PRICE_JUDGED
)
_HOURLY = re.compile(
    r"\brent\w*|\bcloud\b|\bper hour\b|/h(?:ou)?r?\b|\bhourly\b|\binstance"
    # a cloud's price is by the hour: "how much does runpod charge for an a100"
    r"|\b(?:aws|gcp|azure|runpod|lambda|coreweave|vast(?:\.ai)?|paperspace|modal|tensordock"
    r"|hetzner|ovh|oracle|google cloud|together|fluidstack|jarvislabs|nebius|crusoe)\b"
    r"|\b[a-z]\d[a-z]{0,3}\.\d{0,2}x?large\b"
)
_OWNED = re.compile(
    r"\b(?:i|we) (?:have |had |just |already )*(?:bought|own|got(?! offered| quoted| a quote))\b"
    # the subject left out at a sentence's start: "got a tesla p40 for cheap off ebay", "picked
    # up two 3090s last week"
    r"|(?:^|[.!?;]\s|\n)(?:so |ok |well )?(?:just |finally |recently |already )?(?:got|bought"
    r"|picked up|grabbed|scored|snagged)\b(?! (?:offered|quoted|a quote|to|a question))"
)
_OR_BUY = re.compile(
    r"\bor (?:do|would|will|should|must) (?:i|we)(?: \w+){0,3} (?:buy|purchase|get|upgrade)\b[^?]*"
)


# the cards of one setup taken together: "the power draw of both together", "split over both"
_TOGETHER = re.compile(r"\btogether\b|\bcombined\b|\btotal\b|\bsplit\b|\bacross\b|\bin one\b")


def _each_figure(q: Query, low: str) -> bool:
    """Datasheet figures asked of each of several named cards ("vram + bandwidth of both"), not
    of one setup built from them ("power draw of both together", "VRAM per card" for a model)."""
    return (bool(q.fields) and _named_cards(q) >= 2 and not q.models
            and bool(rx.search(_EACH_ASKED, low)) and not _TOGETHER.search(low))  # fmt: skip


def _named_cards(q: Query) -> int:
    """How many different GPUs the question names ("the 4070 and the 4070" is one)."""
    return len({g.ids for g in q.gpus if g.ids})


@lru_cache(maxsize=256)  # each recogniser asks it of the same text
def _questions(low: str) -> str:
    """The clauses that end in a question mark ("... purchase order: does it fit?" -> "does it
    fit?"), or "" when the message asks nothing in so many words."""
    return " ".join(rx.findall(r"(?:[^.?!:;\n]|(?<=\d)\.(?=\d))*\?", low))  # "sd 1.5 ...?" whole


_PER_DOLLAR_ASKED = re.compile(
    r"\bper (?:dollar|buck|\$|euro)|\bcost[- ]?effective|\b(?:tokens?|throughput|perf\w*|speed)"
    r"(?: per| for the| for your) (?:money|price|cost)\b|\bbang for (?:the |your )?buck\b"
)


def _choice(q: Query, low: str) -> bool:
    """One of several named GPUs asked for ("7900 xtx or 4080 super, both $950: which one
    pushes more tok/s"), whatever money the message names."""
    return (
        _named_cards(q) >= 2 and bool(_CHOICE_ASKED.search(low)) and not _MONEY_CHOICE.search(low)
    )


def _solve(q: Query, low: str) -> bool:
    if q.target == "min_gpus" and q.node_size and not q.models:
        return False  # "an a3-highgpu-8g for 72 h: the cost, and how many GPUs do I get?"
    family_only = any(m.suggestions and not m.ids for m in q.models)  # "the biggest Qwen2.5"
    return bool(q.target or _BIGGEST_MODEL.search(low)
                or (family_only and rx.search(r"\b(?:biggest|largest)\b", low)))  # fmt: skip


def asks_how_long(low: str) -> bool:
    """Whether the words ask how long something takes ("how long", "how many days")."""
    return bool(_HOW_LONG.search(low))


# the money of a span of time asked: "how much would it cost", "what's the bill"
_COST_OF_SPAN = re.compile(
    r"\bhow much (?:would|will|does|did|is) (?:it|that|this) cost\b"
    r"|\bwhat(?:'?s| is| would be) the (?:bill|cost|price)\b"
)


def _train_time(q: Query, low: str) -> bool:
    if len(q.providers) >= 2 and rx.search(r"\bcheap\w*|\bprice\w*|\bcosts?\b", low):
        return False  # "lambda vs runpod vs vast for an a100 for 3 days, which is cheapest"
    job = q.epochs or q.train_tokens or q.dataset_samples or q.audio_hours or q.images
    training = q.workload not in (None, "inference")
    if q.user_price_usd_per_hour and q.hours and not rx.search(r"\bhow long\b", low):
        return False  # "$32.77/hr, 3 days of training, what's that": the time is given
    if (
        q.budget
        and q.user_price_usd_per_hour
        and rx.search(
            r"\bhow many (?:[\w-]+ ){0,3}?hours?\b[^.?!]{0,50}\b"
            r"(?:buy|get|cover|pay for|last|afford)",
            low,
        )
    ):
        return False  # "€600 in credits at €1.20/hour: how many hours of training does it buy?"
    if q.hours and _COST_OF_SPAN.search(low) and not rx.search(r"\bhow long\b", low):
        return False  # "how much would it cost ... on 64 H100s for 2 days": the span is given
    if _bill_asked(q, low) and not rx.search(r"\bhow long\b", low):
        return False  # "trains 8 hours a day, 30 days; 4.2 baht a kWh: the month's bill?"
    if q.fields and rx.search(r"\bwhich (?:of the (?:two|three)|one|card|gpu)\w* (?:\w+ ){0,2}"
                              r"(?:has|have|supports?|comes? with)\b", low):  # fmt: skip
        return False  # "runs for 7-10 days ... which of the two cards actually has ECC?"
    # "how long to transcribe 2 hours", "how long for 1M texts through BERT": an inference job's
    # time is its speed (the speed handler gives the whole job's time)
    trained = training or q.epochs or (job and q.workload is None and not q.models)
    # "each step takes 1.2 s, 50,000 steps": a pace per step and the steps, no job named
    trained = trained or bool(
        q.steps and q.seconds_per_item and q.workload is None and not q.models
    )
    if q.hours and q.epochs and rx.search(r"\b(?:per|each|an|every) epoch\b", low):
        return True  # "1 min 30 sec per epoch; 200 epochs?": the whole run's time
    if (q.hours and rx.search(r"\bgpu[- ]?hours?\b", low) and _HOW_LONG.search(low)
            and (q.num_gpus or any(g.count for g in q.gpus))):  # fmt: skip
        return True  # "600 GPU-hours of jobs on a 16-GPU partition: how long until done?"
    return bool(_HOW_LONG.search(low) and trained)


# the prices of the cards named said as a fact beside the choice, not asked
_PRICE_LEVEL_SAID = re.compile(
    r"\b(?:(?:about|roughly|around|pretty much) )?(?:the )?same(?:-ish)? (?:price|cost)\b"
    r"|\bcosts? (?:about |roughly |around |pretty much |more or less )?the same\b"
    r"|\bsimilar(?:ly)? (?:price[ds]?|cost)\b|\bprice[ds]? (?:is |are )?(?:roughly |about |pretty "
    r"much |more or less )?(?:similar|the same|comparable|equal)\b"
    r"|\b(?:is|are|'s) (?:a bit |way |much |slightly |a lot )?cheaper (?:here|where i am|for me|"
    r"locally|over here|in my country|right now)\b"
    # "is the 4080s worth the extra $200", "the difference of price is 1.000 dolares"
    r"|\bworth (?:the |paying (?:the )?)?(?:extra|additional) \$?\d[\d,.]*\b"
    # "both ~$1k", "both around 900 dollars": one price level for the cards compared
    r"|\b(?:both|each) (?:are |cost |costs |go for |run |sell for )?"
    r"(?:about |around |roughly |~|at )?[$€£]?\s?\d[\d.,]*\s?k?\b"
    r"(?:\s?(?:dollars|euros?|usd|eur|bucks))?"
    r"|\b(?:difference (?:of|in) price|price difference|price gap)\b(?:[^.?!\d$€]{0,20}"
    r"[$€]?\s?\d[\d.,]*\s?k?\b(?:\s?(?:dollars|euros?|usd|eur|bucks)\b)?)?"
)


def _without_price_levels(q: Query, low: str) -> str:
    """The words with the prices said beside a choice between named cards taken out."""
    if _named_cards(q) < 2:
        return low
    return _PRICE_LEVEL_SAID.sub(" ", low)


_CHEAP_SAID = re.compile(
    r"\b(?:the|a|this|that|my|our|these|those)\s+cheap(?:o|ish)?\b(?!\s+(?:way|option|one)s?\b)"
    r"|\bcheap(?:o|ish)?\s+(?=\d|(?:\w+\s)?(?:kit|box|card|build|rig|stick)s?\b)"
)


# money in so many words; "how much" alone asks a quantity ("how much is the bandwidth")
_MONEY_WORDS = _cues(
    r"\bcost\w*|\bpric\w+|\brent\w*|\bpay\w*|\bspend\w*|\bbill\b|\bbudget\w*|\bafford\w*",
    r"[$€£]|\bdollars?\b|\busd\b|\beur(?:os?)?\b|\bbucks\b|\bcheap\w*|\bexpensive\b|\btco\b",
    r"\bper (?:gpu[- ])?h(?:ou)?r\b|\bhourly\b",
    _GOES_FOR,
)


_FORMATS = re.compile(r"\b(?:bf16|bfloat16|fp8|float8|tf32)\b")


# "budget" naming a class of card or a non-money limit, not an amount of money
_BUDGET_CLASS = _cues(
    r"\bbudget (?:\w+ )?(?:cards?|gpus?|builds?|options?|picks?|pcs?|rigs?|tiers?|segment|range)\b",
    r"\b(?:power|energy|thermal|compute|latency|memory|vram|time|error|token|gpu-hour) budget\b",
    r"\b(?:power|watts?|thermals?)\b.{0,30}\bbudget(?:ing)? for\b",
)


# a bill asked without the word: "what's that annually?", "what would that be a month?"
_BILL_ASKED = re.compile(
    r"\bwhat(?:'s|s| is| does| would)(?: (?:that|it|this))?\b[^?]{0,20}?\b(?:annual\w*|yearly"
    r"|monthly|weekly|daily|per (?:year|month|week|day)|a (?:year|month|week|day))\b"
    r"|\bwhat(?:'s|s| is| does| would) (?:that|it)\b(?! (?:draw|pull|use))"
    # "how many kWh and how many rand a month?": the energy and its money
    r"|\bhow (?:many|much) kwh\b"
    # "..., kwh is 0.31, monthly?": the period alone asked
    r"|(?:^|[,.;:]\s?)(?:and\s)?(?:monthly|quarterly|yearly|annually|weekly|daily"
    r"|per (?:month|quarter|year|week|day)|a (?:month|quarter|year|week|day))\s?\?"
    # "power per month at 0.30 per kwh?", "monthly electricity at 28p a unit"
    r"|\b(?:electricity|power|energy)(?: (?:cost|bill|use|usage))?\s(?:per|a|each|/|for a|over a)"
    r"\s?(?:year|quarter|month|week|day|yr|mo)\b|\b(?:monthly|quarterly|yearly|annual|weekly|daily)"
    r" (?:electricity"
    r"|power|energy)\b"
)


def _bill_asked(q: Query, low: str) -> bool:
    """An electricity bill asked: a price per kWh, hours of use, the cards or their draw, and a
    cost or a period's bill asked ("20 cents per kwh, my 4090 6 hours a day: what's that a
    year?")."""
    return bool(
        q.usd_per_kwh
        and (q.hours or q.use_hours_per_day)
        and (q.gpus or q.draw_w)
        # ("1000 som per kwh, a 3090 running all day for a month?": a tariff and a span asked
        # of the card, no figure of it asked: the bill)
        and (_COST_ASKED.search(low) or _BILL_ASKED.search(low)
             or (low.rstrip().endswith("?") and not q.fields and not q.models))
    )  # fmt: skip


# whether the cheaper card is enough, asked beside the prices: "if the 40 gig one works I'd
# rather save the money. does it, or do I need the H100?"
_WORKS_OR_NEED = re.compile(
    r"\b(?:if|whether) the [\w -]{1,20}? (?:one )?(?:works|fits|is enough|will do|does it)\b"
    r"|\bor do (?:i|we) (?:really )?need (?:the|an?|two|more)\b"
)
# one card asked as enough for a job, with no card named: "is one GPU enough?"
ONE_CARD_ENOUGH = re.compile(
    r"\b(?:is|would|will|'s)\s(?:just\s)?(?:one|a single|1)\s(?:gpu|card|graphics card)\s(?:be\s)?"
    r"(?:enough|sufficient|ok|okay)\b|\b(?:one|a single|1) (?:gpu|card) enough\b"
)
# a bigger card asked for, if the one said falls short: "or do I need to rent something bigger?"
_BIGGER_NEEDED = re.compile(
    r"\b(?:or )?(?:do|would|will) (?:i|we) (?:really )?(?:need|have) to (?:rent|buy|get|use|go"
    r" (?:for|with)|move to|upgrade to) (?:something|a|an|one) (?:\w+ )?(?:bigger|larger|beefier"
    r"|more powerful|with more (?:memory|vram))\b"
)


def _cost(q: Query, low: str) -> bool:
    asked = q.gpus or q.models or q.user_price_usd_per_hour or q.hours
    # "for the capacity model I'm building (cost allocation per rack)": the user's own work
    low = rx.sub(r"\bcost (?:allocation|model|cent(?:er|re)s?|codes?|accounting)\b", " ", low)
    if len(q.providers) >= 2 and q.gpus and not q.models and _HOURLY.search(low):
        return True  # "a100 80gb per hour: runpod vs lambda?": an hour's rent on each cloud
    found = principles.find(q, low) if _FORMATS.search(low) else None
    if found is not None and found.name == "precision_support" and not _COST_ASKED.search(low):
        return False  # "can we run the FP8 plan on those, or must the budget grow?": the format
    clauses = _questions(low)
    if _bill_asked(q, low):
        return True  # "20 cents per kwh, my 4090 6 hours a day: what's that a year?": the bill
    job = q.audio_hours or q.dataset_samples or q.images or q.train_tokens or q.epochs
    if (q.hours and job and rx.search(r"\benough\b|\bin time\b|\bon time\b|\bmake it\b", low)
            and not _COST_ASKED.search(low)):  # fmt: skip
        return False  # "600 hours of audio by end of week, rented 1 L4. enough?": the deadline
    # "how much is the memory bandwidth of the 4090", "got a Titan V for $300: its fp64 rate?":
    # a datasheet figure (the money said is a story when the questions name none)
    money = bool(q.user_price_usd_per_hour or q.usd_per_kwh) or bool(_BUY_JUDGED.search(low))
    paid = bool((q.purchase_usd or q.budget) and clauses) and not money
    if q.fields and (q.gpus or q.models) and not _MONEY_WORDS.search(clauses if paid else low):
        return False
    priced = q.user_price_usd_per_hour or q.budget or q.purchase_usd or q.monthly_usd
    if (q.fields and (q.gpus or q.models) and not priced
            and not _MONEY_WORDS.search(rx.sub(r"\brent\w*", " ", low))):  # fmt: skip
        return False  # "we're about to rent servers with L40S: how much memory?": the figures
    if _each_figure(q, low) and not _COST_ASKED.search(low):
        return False  # "for a cheap llm box? need vram + bandwidth of both": the figures
    amount = q.user_price_usd_per_hour or q.hours or q.budget or q.purchase_usd or q.monthly_usd
    if (
        clauses
        and q.gpus
        and not amount
        and not (_MONEY_WORDS.search(clauses) or _MONEY.search(clauses))
    ):
        return False  # "choosing between renting L40S or A100: which has more BF16 TFLOPS?"
    if _advice(q, low) and not (q.user_price_usd_per_hour or _COST_ASKED.search(low)):
        return False  # "is a P40 any good for training? $200 on ebay": a judgement, price beside
    if q.budget is None:  # "on a budget" with no amount asks for value, not for a cost
        low = rx.sub(r"\b(?:on a|low|tight|limited|small)(?: \w+)? budget\b", "", low)
        low = _BUDGET_CLASS.sub(" ", low)  # "the budget card", "a compute budget"
    # "a 10kW rack budget", "power budget": watts, not money
    low = rx.sub(r"\b\d+(?:\.\d+)?\s?k?w\b(?: \w+)? budget\b|\bpower budget\b", "", low)
    if q.gpus:  # "hyped as the cheap 128gb box", "a cheap 4800 kit": a description, not the ask
        low = _CHEAP_SAID.sub(" ", low)
    low = _without_price_levels(q, low)  # "same-ish price", "amd is cheaper here"
    if not _COST_ASKED.search(low) and ((q.models and _FIT_ASKED.search(low)) or _choice(q, low)):
        return False  # "will it fit, or do I need to budget a new GPU": the fit is asked
    credit = q.budget is not None and rx.search(r"\bcredits?\b", low)  # "5k of cloud credits"
    clouds = bool(q.providers and q.hours and q.gpus)  # "8 A100s for 2 weeks on Azure vs Lambda"
    return bool((_MONEY.search(low) or q.user_price_usd_per_hour or credit or clouds) and asked)


def _speed(q: Query, low: str) -> bool:
    if (
        q.fields
        and not q.models
        and (not q.workload_given or _RATE_FIGURE_ASKED.search(low))
        and rx.search(
            r"\bflops\b|\btf32\b|\bbf16\b|\bint8\b|\btensor (?:throughput|performance)\b|"
            r"\bfp(?:8|16|32|64)\b|\b(?:double|single|half)[- ]precision\b",
            low,
        )
    ):
        return False  # "the TF32 throughput of the A100": a datasheet figure
    if "bandwidth_gbs" in q.fields and not q.models and not q.workload_given:
        return False  # "how quick is its memory", "its bandwidth and watts": the datasheet
    if _choice(q, low):
        return False  # "which one pushes more tok/s": a choice between the named cards
    if _named_cards(q) >= 2 and _PER_DOLLAR_ASKED.search(low):
        return False  # "l40s or a100, better throughput per dollar?": a choice by value
    if _advice(q, low) and not _SPEED.search(_WEAK_SPEED.sub(" ", low)):
        return False  # "is a p40 still usable for llama.cpp?": a judgement of the card
    if q.models and _FIT_ASKED.search(low) and not _SPEED.search(_WEAK_SPEED.sub(" ", low)):
        return False  # "could it run entirely on the GPU? the VPN is painfully slow": a fit
    if _HOW_LONG.search(low) and q.workload in (None, "inference") and q.models and q.gpus:
        return True  # "how long to process a 1M token batch job with llama 8b on an a10"
    if (
        q.rps
        and q.output_tokens
        and q.models
        and q.gpus
        and rx.search(r"\benough\b|\bkeep up\b|\bhandle\b|\bcope\b|\bbatching\b", low)
    ):
        return True  # "enough for ~40k summaries a day at ~150 output tokens each?": the load
    if q.throughput_tok_s and q.output_tokens and _HOW_LONG.search(low):
        return True  # "my rig does ~18 tok/s; 2 million tokens out: how many hours?"
    if (
        q.seconds_per_item
        and (q.images or q.audio_hours)
        and q.workload in (None, "inference")
        and _HOW_LONG.search(low)
    ):
        # "upscaling runs at 6 frames per second; a 14-minute clip at 24 fps", "an hour of
        # audio takes four minutes; 37 depositions of 2 h 15 min each: how long?"
        return True
    return bool(_SPEED.search(low) and (q.gpus or q.models or q.memory_gb))


# a datasheet figure asked by name, whatever job the message is about ("we move our training to
# H100s. what is the bf16 dense tensor performance of each one?")
_RATE_FIGURE_ASKED = re.compile(
    r"\bwhat(?:'s| is| are)(?: the| their| its)? (?:[\w-]+ ){0,4}"
    r"(?:performance|tflops|flops|throughput)(?: figures?| numbers?)?(?: of| for| on)? "
    r"(?:each|both|them|the two|these|those)\b"
    # "the A30's memory, bandwidth and FP64 throughput": a precision's rate by name
    r"|\b(?:fp(?:8|16|32|64)|tf32|bf16|int8|(?:double|single|half)[- ]precision) "
    r"(?:tensor )?(?:throughput|performance|tflops|flops|rate)\b"
)

# words that speak of speed without asking a figure
_WEAK_SPEED = re.compile(r"\bslow\w*|\busable\b|\bperformance\b|\breal[- ]?time\b")


# a speed's bound asked: "decode upper bound", "bandwidth roofline", "the tok/s ceiling"
ROOFLINE = re.compile(
    # (not a ceiling of money: "a budget ceiling of $2k, what speed?")
    r"\b(?:upper bound|roofline|theoretical (?:max(?:imum)?|peak|limit)|(?<!budget )(?<!price )"
    r"(?<!cost )(?<!spend )(?<!spending )ceiling)\b"
    r"[^.?!]{0,60}\b(?:decode|tok\w*|generation|speed)\b"
    r"|\b(?:decode|tok\w*|generation|speed)\b[^.?!]{0,60}\b(?:upper bound|roofline"
    r"|(?<!budget )(?<!price )(?<!cost )(?<!spend )(?<!spending )ceiling)\b"
)


def _rate(q: Query, low: str) -> bool:
    if (q.throughput_tok_s or q.seconds_per_item) and q.hours and MADE_ASKED.search(low):
        return True  # "1,500 tokens/s in all: how many tokens in a 30-day month?"
    if q.gpus and q.models and q.hours and MADE_ASKED.search(low):
        return True  # "how many sdxl images can a 4090 make in an 8-hour shift?"
    if q.models and ROOFLINE.search(low):
        return True  # "single-stream decode upper bound for 70B fp8 on an H100, roofline"
    return bool(_RATE.search(low)) and not q.user_price_usd_per_hour and "$" not in low


_SIZE_OF_MODELS = re.compile(
    r"\b(?:half|twice|double) the (?:size|memory|vram)\b"
    r"|\b(?:smaller|bigger|larger|lighter|heavier)"
    r"\b[^?.!]{0,30}\b(?:than|vs)\b|\bhow much (?:more|less) (?:vram|memory)\b"
)


def _compare(q: Query, low: str) -> bool:
    if _each_figure(q, low):
        return True  # "what are the two bandwidth figures?", "memory per card of both"
    if _figure_only(q):
        return False
    if q.models and _FIT_ASKED.search(low) and not _choice(q, low):
        return False  # "upgrading from my 2070 super: will a used 3090 run a 70b": a fit
    if (
        not q.gpus
        and len({m.ids for m in q.models if m.ids}) >= 2
        and (
            _SIZE_OF_MODELS.search(low)
            or ("memory_gb" in q.fields and rx.search(r"\bwhich\b|\bvs\.?\b|\bversus\b", low))
        )
    ):
        return True  # "is distil-large-v3 half the size of large-v3?", "which needs less vram?"
    several = len(q.gpus) >= 2
    variants = len(q.gpus) == 1 and q.gpus[0].open_variant and rx.search(r"\bvariants?\b", low)
    return bool((several or variants) and _COMPARE.search(low))


def _recommend(q: Query, low: str) -> bool:
    if _bill_asked(q, low) and q.draw_w:
        return False  # "also, at 400 W 8 hours a day and 14c/kWh, the monthly bill?": power
    if not q.gpus and not q.models and rx.search(r"\bdifference\b|\bhow do they differ\b", low):
        return False  # "q4_K_M vs awq vs gptq: what's the difference, which should i use"
    if _named_cards(q) >= 2 and not _open_choice(q, low):
        return False  # "which has more fp64, the a100 or the v100?": a choice between named GPUs
    if q.memory_gb and q.models:
        return False  # "is 24 GB enough for gemma 2 27b": a fit question
    if q.models and not q.gpus and _MEMORY_ASKED.search(low) and not _PICK_ASKED.search(low):
        return False  # "how much vram does llama 3 8b need": the memory it needs
    if (
        q.budget
        and q.budget.kind
        and not q.gpus
        and (q.models or q.workload_given)
        and not rx.search(r"\bhow (?:long|many hours|much time)\b", low)
    ):
        return True  # "rent budget 2 bucks an hour max, want to serve mixtral": a job and a cap
    bought = q.buying or (q.budget is not None and q.budget.kind == "buy")
    if bought and not q.gpus and (q.models or q.workload_given or q.budget):
        return True  # "waht gpu shoud i by for lamma 3 70b", "laptop for ml, budget 3k": to buy
    one_card_asked = len(q.gpus) == 1 and not _new_card_asked(q, low)
    if q.models and not q.gpus and (q.concurrency or q.rps) and _A_JOB_STATED.match(low):
        return True  # "serving mixtral with vllm to 20 users, want under 50ms per token": a pick
    return bool(_RECOMMEND.search(low)) and (not one_card_asked or bool(_WHAT_CAN_RUN.search(low)))


# a job stated, not asked ("serving mixtral 8x7b at 20 concurrent users, ..."): no question mark,
# no question word
_A_JOB_STATED = re.compile(
    r"^(?![^?]*\?)(?!.*\b(?:how|what|which|can|could|is|are|does|do|will|would|should|why|when"
    r"|costs?|price|bill)\b)"
)


# "what card?" asked outright (not "what gpu do i need", "what card is it")
_WHAT_CARD = re.compile(
    r"\bwhat (?:\w+ )?(?:card|gpu)s?\b(?! (?:is|has|do|does|would|will|should|did|can|could)\b)"
)
# a pick asked in so many words, beside the memory a job needs ("which one would you recommend,
# and how much memory does the training need?")
_PICK_ASKED = _cues(
    r"\b(?:would|do|can|could) you (?:recommend|suggest)\b",
    _WHICH_CARD + r"(?! (?:is|has)\b)",
    # "what card, and how much vram do the two take together?" (not "what gpu do i need": the
    # memory the job needs)
    _WHAT_CARD.pattern,
)


_OPEN_CHOICE = _cues(
    r"\bor (?:something|anything) (?:else|better)\b", r"\bwhat else\b", r"\bor other options\b"
)


def _open_choice(q: Query, low: str) -> bool:
    """ "8x h100 or 8x l40s or something else?": the named GPUs are candidates, not the list."""
    return bool(_OPEN_CHOICE.search(low))


def _versus(q: Query, low: str) -> bool:
    """Two or more GPUs set against each other in so many words ("A vs B"); a datasheet
    figure asked of both ("the fp64 of mi300x vs h100") is a datasheet question."""
    if q.target == "min_gpus" and q.models:
        return False  # "how many h100 vs l40s for a 70b": the count of each is the question
    if _named_cards(q) < 2 or not _STRONG_COMPARE.search(low):
        return False
    if _RENT_OF_EACH.search(low) and (len(q.providers) >= 2 or not (q.models or q.workload_given)):
        return False  # "what does a pair of 3090s cost per hour on vast vs an a100 on runpod?"
    if not _figure_only(q):
        return True
    # "fp64: a100 vs h100 vs mi300x", "L4 vs A10G: bf16 tflops + mem bw": different cards set
    # against each other in so many words, the figures asked side by side; the variants of one
    # card ("H100 PCIe vs SXM fp16 numbers?") stay a datasheet question
    return bool(_VS.search(low)) and len({g.base for g in q.gpus if g.ids}) >= 2


_VS = _cues(r"\bvs\.?\b", r"\bversus\b")
# the rent of each asked, cards set side by side only by it: "what does a pair of 3090s cost per
# hour on vast vs an a100 on runpod?"
_RENT_OF_EACH = re.compile(
    r"\b(?:what (?:does|do|would|will)|how much (?:does|do|would|will|is|are))\b[^?.!]{0,60}"
    r"\b(?:cost|run|rent|charge)\b[^?.!]{0,15}\b(?:per|an?|/)\s?(?:hour|hr|h|month|mo)\b"
    # "price per hour of an h200 vs b200", "hourly rate for an a100 vs h100?"
    r"|^[^?.!]{0,20}\b(?:(?:price|cost|rate|rent)s? (?:per|an|a) (?:gpu[- ])?hour|hourly (?:price"
    r"|cost|rate|rent)s?)\b"
)


def _figure_only(q: Query) -> bool:
    """The figures asked of several GPUs, with no judgement between them ("which", "better")."""
    low = q.low
    judged = _JUDGED.search(low) or q.max_power_w or _each_figure(q, low)  # a limit, or each
    return bool(q.fields) and not q.models and not q.workload_given and not judged


_JUDGED = _cues(
    r"\b(?:which|better|worse|more|less|faster|slower|wins?|different|difference|differ|besides|worth"
    r"|should|pick|choose|beats?|over|factor|delta|side[- ]by[- ]side|same|speed-?ups?"
    r"|decid\w+|choosing|between|weigh(?:s|ing|ed)?)\b|>\s?\d+(?:\.\d+)?\s?x\b|\bfor the extra\b",
    r"\bline (?:\w+ )?up\b",  # "line up the VRAM and bandwidth of the two"
    # "please compare the A5000 and the A4500: memory of each"
    r"(?<!\bfor )\bcompar(?:e|es|ed|ing|ison)\b",
    _RATIO_WORDS,
    r"\bis (?:that|this|it) (?:accurate|right|true|correct)\b",
    r"\bqual\b|\bmais\b|\bmenos\b",  # Portuguese/Spanish "qual tem mais banda"
    r"\b(?:higher|lower|bigger|smaller|larger)\b[^?.!]{0,40}\bthan\b",  # "a lower TDP than the SXM"
)


def _why(q: Query, low: str) -> bool:
    about_gpus = q.topic or _entities(q) or _GPU_WORDS.search(low)  # not "why is pandas slow"
    explain = rx.search(r"\bexplain\b|\bin plain (?:english|words|terms)\b|\beli5\b", low)
    why = rx.search(r"\bwhy\b|\bhow come\b", low)  # "explain ... why": not "explain whether"
    return bool(_WHY.search(low) and about_gpus) and (
        not (q.models and q.gpus) or bool(explain and why)
    )


_GOOD_FOR = _cues(
    r"\bgood (?:for|enough|at)\b",
    # "is the a100 the best for llm training?": the card judged against the rest for a job
    r"\bis (?:the |a |an |my )?[\w -]{1,25}? the best (?:card |gpu |choice |option |one )?for\b",
    r"\bany good\b",
    r"\bworth it\b",
    r"\bdecent\b",
    r"\bcapable\b",
    r"\bsuitable\b",
    r"\b(?:ok|okay|fine|viable|usable) for\b",
    r"\benough for (?:ml|ai|deep learning|machine learning|llms?|training|fine-?tuning)\b",
    # "enough for a beginner learning deep learning (fast.ai, kaggle)"
    r"\benough for (?:a |an )?(?:beginners?|students?|learning|starting|kaggle|fast\.?ai|"
    r"hobby\w*|courses?)\b",
    # "downsides?", "any catch?": a judgement of the card
    r"\b(?:downsides?|drawbacks?|cons|gotchas?|caveats?)\b",
    r"\bdoes it (?:even |actually |really )?work\b",
    r"\bcan it (?:do|handle)\b",
    # "can it still do anything useful for ml these days", "is it still relevant/usable"
    r"\b(?:can it|does it|is it) still\b",
    r"\buse?ful+ (?:for|in|these days|anymore|any ?more)\b",
    r"\bhow good is\b",
    # "is it realistic to train on it", not "a realistic MFU on H100s" (a figure of a concept)
    r"\brealistic(?:ally)?\b(?! (?:mfu|utili[sz]ation|figure|number|value|speed|throughput))",
    r"\bviable\b",
    r"\bgood (?:idea|pick|choice)\b",
    r"\bcan (?:i|we) (?:really |actually )?(?:train|fine-?tune|do (?:deep learning|ml|ai))\b",
)


# a datasheet figure asked in so many words ("how much vram does it have, and the bandwidth")
_FIGURE_ASKED = re.compile(r"\bhow (?:much|many|big|wide)\b|\bwhat(?:'?s| is| are)\b")


def _advice(q: Query, low: str) -> bool:
    """ "Is the 4090 laptop good for deep learning?": one GPU, no model, a judgement asked."""
    return (
        len(q.gpus) == 1
        and bool(q.gpus[0].ids)
        and all(m.assumed for m in q.models)  # "any good for whisper": the family, no model
        # "worth it, or too slow because of the 128-bit bus?": a figure named as the doubt
        and (
            not q.fields
            # (a price said: a question about buying it)
            or bool(
                rx.search(r"\bworth it\b|\btoo slow\b", low)
                and not _FIGURE_ASKED.search(low)
                and not rx.search(r"[$€£]\s?\d", low)
            )
        )
        and bool(_GOOD_FOR.search(low))
    )


_MEMORY_ASKED = _cues(
    r"\bhow much (?:more |extra )?(?:vram|memory|gpu memory)\b",
    r"\b(?:min(?:imum)?|least) (?:vram|memory|gpu memory)\b",
    r"\bcu[aá]nta vram\b",
    r"\bwie viel vram\b",
    r"\b(?:peak|max(?:imum)?) (?:vram|memory)\b",
    r"\b(?:vram|memory) (?:usage|use|needed|required|requirements?|footprint)\b",
    # "kv cache size for qwen 72b at 64k", "how big is the kv cache of ...": the cache's memory
    r"\bkv[- ]?cache (?:size|footprint|memory|usage)\b|\bsize of (?:the |its )?kv[- ]?cache\b",
    r"\bhow (?:big|large|much) (?:is |will |would )?(?:the |its |a )?kv[- ]?cache\b",
    # "vram for llama 2 7b inference", "memory difference", "compare memory: lora vs full"
    r"^(?:[\w ]{0,20}: ?)?(?:vram|gpu memory) (?:for|of|to)\b",
    r"\b(?:memory|vram) (?:difference|gap|saving|savings|comparison)\b",
    r"\bcompare (?:the )?(?:memory|vram)\b",
)


_LINK_WORDS = _cues(
    r"\bnvlink\w*",
    r"\bnv-link\b",
    r"\bnvswitch\b",
    r"\bsli\b",
    r"\bp2p\b",
    r"\bpeer[- ]to[- ]peer\b",
)
_LINK_ASKED = _cues(
    r"\b(?:need|needs|needed|require[ds]?|worth|matters?|necessary|important|help|helps)\b",
    r"\b(?:speed\w* (?:it |things |generation |training )?up|faster|quicker|boost\w*|improve\w*)\b",
    r"\bpcie\b.{0,30}\b(?:fine|enough|ok|okay|sufficient|good enough|bottleneck)\b",
    r"\bwithout (?:an? )?nvlink\b",
    r"\bwork\w* (?:ok|okay|fine|well|at all)\b|\bpointless\b|\buseless\b",
    r"\bdifference\b",
)


def _link(q: Query, low: str) -> bool:
    """ "Do I need an NVLink bridge for 2x 3090s, or is PCIe fine?": a link, a judgement."""
    if q.requirements:
        return False  # "requires NVLink of at least 400 GB/s: is bidder A compliant?": a figure
    if not (q.gpus and q.gpus[0].ids):
        return False
    for g in q.gpus:  # "4x RTX 4090 or 1x H100 PCIe": a card's name, no link asked
        if g.text and rx.search(r"\b(?:pcie|sxm|nvl)\b", g.text.lower()):
            low = low.replace(g.text.lower(), " ")
    if _LINK_WORDS.search(low) and _LINK_ASKED.search(low):
        return True
    several = (q.gpus[0].count or q.num_gpus or 1) > 1 or _MULTI_GPU_SAID.search(low)
    return bool(several and _PCIE_JUDGED.search(low))


# PCIe judged on its own, with several cards: "is the pcie a bottleneck for ddp on 4x 3090s"
_PCIE_JUDGED = re.compile(
    r"\bpcie\b.{0,40}\b(?:bottleneck\w*|fine(?![- ]?tun)|enough|ok|okay|sufficient"
    r"|slow\w* (?:it|things|training) down|hold\w* (?:it |things |me |us )?back|limit\w*)\b"
    r"|\b(?:bottleneck\w*|limit\w*|slow\w* down)\b.{0,30}\bpcie\b"
)
_MULTI_GPU_SAID = re.compile(r"\bddp\b|\bdata[- ]parallel\b|\bmulti[- ]?gpu\b|\bfsdp\b")


# the figures a named card has, asked: "how much vram does it have"
_HAS_ASKED = re.compile(
    r"\b(?:does|do) (?:it|they|the card|this card|that card|this thing|the gpu) "
    r"(?:have|come with)\b"
)


def _fit(q: Query, low: str) -> bool:
    if q.models and all(m.assumed for m in q.models) and _advice(q, low):
        return False  # "are g4dns any good for whisper": a judgement of the card
    if (
        q.fields
        and q.gpus
        and _HAS_ASKED.search(low)
        and not _FIT_ASKED.search(low)
        and not rx.search(
            r"\benough\b|\bthe (?:memory|vram) (?:for|to)\b|\bto (?:run|train|load)\b", low
        )
    ):
        return False  # "how much vram does it have? mainly want it for 13b models": the card's
    if (not q.gpus and not q.memory_gb and (q.budget or q.buying or q.together)
            and _WHAT_CARD.search(low)):  # fmt: skip
        return False  # "under $1k, whisper and an 8B loaded at once: what card?": a pick
    # "128gb ddr5, no gpu: can I run a 70b at all?": on the CPU
    return bool(q.models and (q.gpus or q.memory_gb or q.cpu_only or _MEMORY_ASKED.search(low)))


def _concept_first(q: Query, low: str) -> bool:
    """ "what are tensor cores and does my 1080 have them", "in plain terms: what is
    quantisation, and how much does it save": the concept asked on its own, first."""
    if not q.topic or (q.topic == "memory_bandwidth" and q.gpus):  # "the A10's bandwidth?"
        return False
    concept = rf"\bwhat(?:'?s| is| are) (?:an? |the )?(?:{TOPIC_WORDS[q.topic]})"
    asked_alone = r"(?=\s*(?:$|[?,.!;]|(?:and|do|does|mean|exactly|actually|really|anyway)\b))"
    return bool(rx.search(concept + asked_alone, low))


# topics whose words are a question in themselves ("lora vs qlora?", "what is gguf", "why does
# vram matter"): an explanation wherever no model is named
_ASKED_AS_A_WHOLE = ("quant_formats", "lora_vs_qlora", "gguf", "vram_matters", "serving_engines",
                     "ram_spill", "decode_speed", "temperature", "mixed_vendors")  # fmt: skip


# a figure asked by its name: "what is the nvlink bandwidth", "what's nvlink speed on the h100"
_FIGURE_OF_TOPIC = re.compile(
    r"\bwhat(?:'?s| is| are) (?:the )?(?:[\w-]+ ){0,2}(?:bandwidth|speed|throughput|tflops"
    r"|capacity|size|figure|number|count)\b"
)


def _explain(q: Query, low: str) -> bool:
    if q.topic == "out_of_memory" and q.models and (q.gpus or q.memory_gb):
        return False  # "why does llama 70b run out of memory on my 4090?": the fit, part by part
    if _concept_first(q, low) or (q.topic in _ASKED_AS_A_WHOLE and not q.models):
        return True  # (formats weighed for a card named: what each is and when to pick it)
    if q.topic == "p2p" and not q.models:  # no datasheet field says it: "p2p on a 4090?"
        return True
    if q.gpus and q.fields and _FIGURE_OF_TOPIC.search(low) and not rx.search(
        r"\bwhy\b|\bhow (?:does|do|come)\b|\bexplain\w*|\bmeans?\b|\bin plain\b|\bdifference\b"
        r"|\bmatters?\b|\ba thing\b|\bmarketing\b|\bworth\b", low):  # fmt: skip
        return False  # "what is nvlink bandwidth on the a100 sxm?": the figure of the card
    return bool(_EXPLAIN.search(low)) and (bool(q.topic) or not (q.models and q.gpus))


def _pick_asked(q: Query, low: str) -> bool:
    """One of two or more cards asked for a model's job ("which one, and why does the memory
    matter?"): the pick leads, whatever the why beside it."""
    which = rx.search(r"\bwhich (?:one|card|gpu|of (?:the|them|these|those))\b"
                      # "One H100 80GB or one H200 141GB? Which, why."
                      r"|\bwhich\s?[,?.]|\bwhich (?:and|&) why\b", low)  # fmt: skip
    return bool(len({g.ids for g in q.gpus}) >= 2 and q.models and which)


def _more_of_which(q: Query, low: str) -> bool:
    """Two cards or more named and which has more of a figure asked: "which one's got more
    memory", "which is quicker on bandwidth"."""
    return len({g.ids for g in q.gpus}) >= 2 and bool(
        rx.search(
            r"\bwhich(?: one| card| gpu)?(?:'s| is| has| got|s)?(?: got)?\b[^.?!]{0,30}?"
            r"\b(?:more|most|faster|quicker|bigger|higher|larger|less|lower|fewer)\b",
            low,
        )
    )


def _why_or_concept(q: Query, low: str) -> bool:
    if _pick_asked(q, low) or _more_of_which(q, low):
        return False  # "5070 12GB or 5060 Ti 16GB for Phi-4? which one, and why?": the pick first
    plain = rx.search(r"\bin plain (?:english|words|terms)\b|\beli5\b|\bexplain\b", low)
    # "'the KV cache' ... In plain words, what is it, and how much memory ...?"
    it = q.topic and rx.search(r"\bwhat(?:'s| is| are) (?:it|that|this|they)\b", low)
    # "'int8' instead of 'fp16': in plain English, what's the difference?"
    differs = q.topic and rx.search(r"\bwhat(?:'s| is) the difference\b", low)
    # "whats the diff between time to first token and tokens per sec?": two ideas, no hardware
    ideas = not (q.gpus or q.models) and rx.search(
        r"\bwhat(?:'?s| is| are) the diff(?:erence)?s? between\b", low
    )
    # "bf16 tensor tflops or fp32 cuda core numbers, which one matters for training?": which of
    # two figures, no card or model named
    figures = bool(
        q.topic
        and not (q.gpus or q.models)
        and rx.search(
            r"\bwhich (?:one|of (?:them|the two|these|those)|number|figure)\s(?:really |actually )?"
            r"(?:matters?|counts?|is (?:more )?(?:important|relevant|meaningful))\b",
            low,
        )
    )
    return (_why(q, low) or bool(ideas) or figures
            or bool(plain and (_concept_first(q, low) or it or differs)))  # fmt: skip


def _spec(q: Query, low: str) -> bool:
    return bool(q.gpus)


def _required(q: Query, low: str) -> bool:
    """ "min. 80 GB memory and max. 600 W per card: is the bid compliant?": the card's figures
    against the requirement."""
    asked = _questions(low)
    other = (
        _PRICE_ASKED.search(asked) or _choice(q, low) or rx.search(r"\bwhich\b|\bbetter\b", asked)
    )
    return bool(q.requirements and q.gpus) and not other


def _fallback(q: Query, low: str) -> bool:
    return True


def principle_for(q: Query) -> principles.Principle | None:
    """The principle a question asks in so many words, when it answers for the question's
    intent (a follow-up that keeps the intent without the words gets the intent's handler)."""
    found = principles.find(q, q.low)
    return found if found is not None and found.kind == q.intent else None


# the tools offered to a model for each intent, in that order (a small model chooses better
# from a few, and reads a shorter prompt faster)
_FIT_TOOLS = ("estimate", "solve", "model_specs", "gpu_specs", "search_corpus")
_COST_TOOLS = ("prices", "rental_cost", "rental_hours", "estimate", "purchase_prices",
               "electricity_cost", "token_cost", "tokens_for_budget_at_mfu",
               "bill_rate")  # fmt: skip
_BUY_TOOLS = ("break_even", "purchase_prices", "prices", "rental_cost", "estimate")

# fmt: off
INTENTS: dict[str, Intent] = {
    i.name: i
    for i in (
        Intent("invalid", "not a question", _invalid, h.invalid, False, "none"),
        Intent("greeting", "greeting", _greeting, h.greeting, False, "none"),
        Intent("out_of_scope", "outside GPUs for ML", _out_of_scope, h.out_of_scope, False, "none"),
        Intent("link", "does the GPU link matter", _link, h.link, False, "entities",
               tools=("estimate", "gpu_specs", "search_corpus")),
        Intent("solve", "limits (context, batch, GPUs, largest model)", _solve, h.solve, True,
               "entities",
               tools=("solve", "largest_model", "estimate", "model_specs", "gpu_specs",
                      "users_at_pace")),
        Intent("rent_or_buy", "rent or buy", _rent_or_buy, h.rent_or_buy, True, "entities",
               _break_even, tools=_BUY_TOOLS),
        Intent("buy", "what to buy", _buy, h.buy, True, "entities",
               tools=("purchase_prices", "recommend_gpus", "estimate", "gpu_specs")),
        Intent("recommend", "recommendation", _recommend, h.recommend, True, "entities",
               _open_choice, tools=("recommend_gpus", "estimate", "prices", "gpu_specs")),
        Intent("train_time", "time for a job", _train_time, h.job_time, True, "entities",
               tools=("estimate", "compare_workload", "rental_cost", "rental_hours", "paced_time",
                      "carried_measurement", "train_time_at_mfu", "tokens_for_budget_at_mfu",
                      "gpu_specs")),
        Intent("cost", "cost", _cost, h.cost, True, "entities", tools=_COST_TOOLS),
        Intent("speed", "speed", _speed, h.speed, True, "entities", _rate,
               tools=("estimate", "compare_workload", "compare_gpus", "gpu_specs",
                      "carried_measurement", "decode_ceiling")),
        Intent("compare", "comparison", _compare, h.compare, True, "entities", _versus,
               tools=("compare_gpus", "compare_workload", "gpu_specs", "search_corpus")),
        Intent("fit", "will it fit", _fit, h.fit, True, "entities", tools=_FIT_TOOLS),
        Intent("advice", "is it good for ML", _advice, h.advice, False, "entities",
               tools=("gpu_specs", "recommend_gpus", "estimate", "search_corpus")),
        Intent("explain", "explanation", _explain, h.explain, False, "topic", _why_or_concept),
        Intent("spec", "datasheet", _spec, h.spec, False, "entities", _required,
               tools=("gpu_specs", "compare_gpus", "list_gpus", "search_corpus")),
        Intent("search", "from the articles", _fallback, h.explain, False, "topic"),
    )
}
# fmt: on


# speed named only to say it does not matter: "speed not critical", "don't care about speed",
# "not expecting miracles speed wise", "even if it's slow"
_UNASKED_SPEED = re.compile(
    r"\b(?:i'?m |i am |we'?re |we are )?not (?:asking|worried|concerned|bothered) (?:about|for) "
    r"(?:the )?(?:speed|performance|how fast)\b|\b(?:speed|performance) aside\b"
    r"|\bforget (?:about )?(?:the )?speed\b|\bignor(?:e|ing) (?:the )?speed\b|"
    r"\b(?:speed|performance|how fast)\s(?:is\s|isn'?t\s|is not\s)?(?:not\s)?(?:really\s)?"
    r"(?:critical|important|a (?:concern|priority|big deal|factor)|an issue|crucial)\b"
    r"|\b(?:speed|performance)\s(?:doesn'?t|does not|won'?t|will not)\s(?:really\s)?matter\b"
    r"|\b(?:don'?t|do not|doesn'?t|dont)\s(?:really\s|much\s)?care\s(?:much\s)?(?:about|for)\s"
    r"(?:the\s)?(?:speed|how fast|performance)\b"
    r"|\b(?:not expecting|don'?t expect|dont expect|not worried about|not fussed about)\b"
    r"[^.?!,]{0,25}\b(?:speed|performance|fast)\b(?:[- ]?wise)?"
    r"|\b(?:even if|fine if|ok if|okay if|(?:don'?t|dont|do not) (?:really )?care if) "
    r"(?:it'?s |its |it is |it'?ll be |it will be )?slow\b|\bslow is (?:fine|ok)"
)


# what the articles say, asked in so many words: "what do the articles say", "any articles?"
_ARTICLES_ASKED = re.compile(
    r"\bwhat (?:do|does|did) (?:the |your |these |those )?(?:articles?|sources?|docs|papers?"
    r"|blogs?|posts?|write-?ups?)\b|\bany (?:articles?|sources?|write-?ups?)\b"
    r"|\baccording to (?:the |your )?(?:articles?|sources?)\b"
    # "what does the a6000 vs a100 article say", "summarize the article about ..."
    r"|\bwhat (?:do|does|did) (?:the |your |this |that )?(?:[\w.-]+ ){1,6}(?:articles?|posts?"
    r"|blogs?|write-?ups?|sources?|reviews?) (?:say|claim|conclude|find|recommend)\b"
    r"|\bsummari[sz]e (?:the |that |this )?(?:articles?|posts?|blogs?|write-?ups?|sources?)\b"
)


# the cost of running a card of one's own: its electricity ("how much electricity does a 4090
# use per month", "the monthly cost of running a 4090 at home 24/7")
_RUNNING_COST = re.compile(
    r"\bhow much (?:electricity|power|energy)\b[^.?!]{0,40}\b(?:use|draw|take|cost|burn)\w*\b"
    r"[^.?!]{0,40}\b(?:per|a|each|every) (?:month|year|day|week)\b|\belectricity (?:bill|cost)"
    r"|\b(?:monthly|yearly|annual|daily) (?:cost|bill) of running\b[^.?!]{0,40}\bat home\b"
    r"|\bcost (?:per|a) (?:month|year) (?:of|to) run(?:ning)?\b[^.?!]{0,40}\bat home\b"
)


def detect_intent(query: Query, low: str, principled: bool = True) -> str:
    """The intent of a principle asked in so many words ("do I get 2x tokens/s with a second
    card?" is a speed question), else the first intent whose strong cue is there ("why ...",
    "A vs B"), else the first of the table (its order is the precedence) whose recogniser
    accepts the question (`principled=False`: the cascade alone, for a principle that declined
    the question)."""
    low = _UNASKED_SPEED.sub(" ", low)  # "speed not critical": said, not asked
    found = None if _field_list(query) or not principled else principles.find(query, low)
    if (
        found is not None
        and found.kind == "explain"
        and (_pick_asked(query, low) or _more_of_which(query, low))
    ):
        found = None  # the pick asked beside a why; "5080 or 4090, which one's quicker on the
        # memory bandwidth side?": the two cards' figures, not the idea
    if found is not None and found.kind in INTENTS and not _invalid(query, low):
        return found.kind
    if query.models and len(query.gpus) >= 2 and _WORKS_OR_NEED.search(low):
        return "fit"  # "if the 40 gig one works I'd rather save. does it, or do I need the H100?"
    if query.models and not query.gpus and not query.memory_gb and ONE_CARD_ENOUGH.search(low):
        return "recommend"  # "10k summaries a day with llama 8b: is one GPU enough?": the card
    if _BIGGER_NEEDED.search(low) and not (query.user_price_usd_per_hour or query.hours):
        return "fit"  # "... on my rtx 6000 ada? or do I need to rent something bigger?"
    if _ARTICLES_ASKED.search(low) and not _field_list(query) and not _invalid(query, low):
        return "explain"  # "what does the a6000 vs a100 article say?": their sentences
    if not query.gpus and HARDWARE_UNKNOWN.search(low):
        return "fit"  # "good enough for the ai thing? its a dell, dont know whats inside it"
    if (len(query.gpus) == 1 and not query.models and not query.user_price_usd_per_hour
            and _RUNNING_COST.search(low)):  # fmt: skip
        return "cost"  # "monthly cost of running a 4090 at home 24/7": its electricity
    if len(query.draws_w) == 2 and query.usd_per_kwh is not None:
        return "cost"  # "my 3090 draws 350 W vs the 4070's 200 W, 30c/kWh: savings a year?"
    for name, intent in INTENTS.items():
        if intent.early is not None and intent.early(query, low):
            return name
    if (query.topic == "vram_matters" and not query.models and rx.search(r"\bwhy\b", low)
            and not (_pick_asked(query, low) or _more_of_which(query, low))):  # fmt: skip
        # "my friend says the 4070 Ti beats a 3090 ... why does VRAM matter more?": the idea,
        # with the two cards as its example, not the two cards weighed
        return "explain"
    if _fields_asked_of_the_card(query, low):
        return "spec" if len(query.gpus) == 1 and not query.gpus[0].count else "compare"
    which_better = rx.search(r"\bwhich\b[^.?!]{0,20}\b(?:better|best|pick|get|buy)\b", low)
    if (
        len({g.ids for g in query.gpus if g.ids}) >= 2
        and query.fields
        and not query.models
        and which_better
    ):
        # "an RTX 4000 SFF Ada and an RTX A4000: which is the better shout? VRAM, speed, watts"
        return "compare"
    name = next(name for name, intent in INTENTS.items() if intent.detect(query, low))
    if name in ("buy", "speed") and _field_list(query) and not _PRICE_ASKED.search(low):
        # "thinking of buying a 4060 Ti 16GB: its VRAM, bandwidth and TDP?": the figures asked
        cards = {g.ids for g in query.gpus if g.ids}
        return "spec" if len(cards) <= 1 else "compare"
    if name == "search" and not _entities(query) and (asked := UNNAMED_ASKED.search(low)):
        # "will it fit?", "how fast would it run?" with nothing named: the question is the
        # calculator's; its handler asks which model and card
        return "speed" if re.search(r"\bhow fast\b|\btok", asked.group(0)) else "fit"
    if (name == "search" and query.models and not query.gpus and "memory_gb" in query.fields
            and (query.context or query.precision or query.batch)):  # fmt: skip
        return "fit"  # "llama-3-8b, 1M token context, vram?": the memory the job needs
    if name == "search" and query.models and _PLANNED_JOB.search(low):
        # "our team needs to serve qwen2.5-72b with vllm, ~30 users": a job said, no question:
        # what it needs (on the GPUs said, whether they hold it)
        return "fit" if query.gpus else "recommend"
    if name in ("spec", "search", "advice", "compare", "recommend") and _ARTICLES_ASKED.search(
            low) and not _field_list(
            query):  # fmt: skip
        return "explain"  # "what do the articles say about the L40 for AI?": their sentences
    weighed = re.search(r"\b(?:better|best|which)\b[^?]{0,40}\b(?:or|vs\.?|versus)\b", low)
    if (name == "buy" and len({g.ids for g in query.gpus}) == 2 and not query.purchase_usd
            and not query.gpu_purchase_prices and not query.budget and weighed):  # fmt: skip
        return "compare"  # "what's better for the money, a new 5070 ti or a used 3090 ti?"
    if name == "out_of_scope" and query.usd_per_kwh is not None and query.draw_w:
        return "cost"  # "draws 400 w, 3 hours a week, 30p a unit: yearly cost?": a power bill
    if name in ("spec", "search", "fit") and _unread(low):
        # a language the phrasebook lacks: what its figures and units say was asked
        if query.usd_per_kwh is not None and (query.gpus or query.draw_w):
            return "cost"  # "а кВт·год коштує 4,32 грн": a bill  # noqa: RUF003
        if query.purchase_usd and query.user_price_usd_per_hour:
            return "rent_or_buy"  # a price to buy and one by the hour: when buying pays off
    return name


# the commonest English words: a question with next to none of them, after the phrasebook, is
# in a language it lacks
_ENGLISH = frozenset(
    re.findall(
        r"\w+",
        "the a an is are was what how much many can could does do did i my me we our you your it "
        "its for on in with and or of to will would which should this that be at per from by if "
        "there have has need get run",
    )
)


def _unread(low: str) -> bool:
    words = re.findall(r"[^\W\d_]{2,}", low)
    return len(words) >= 5 and sum(w in _ENGLISH for w in words) < 0.1 * len(words)


# a datasheet figure asked of a card: "what's its memory bandwidth", "what is the fp16 throughput"
_FIELD_QUESTION = re.compile(
    r"\bwhat(?:'s| is| are|s)? (?:its|the|their) (?:\w+ ){0,2}(?:memory bandwidth|bandwidth"
    r"|(?:dense |sparse )?(?:fp|bf|tf|int)\d+\b|tensor (?:throughput|tflops|performance)|tflops"
    r"|vram|memory (?:size|capacity|type)|tdp|board power|power draw)"
)


def _field_list(query: Query) -> bool:
    """ "memory, bandwidth, the power cap and how many MIG instances, for the ticket": three or
    more datasheet figures listed for the cards named, and no model; no concept their words
    touch ("power cap", "where supported", "shared memory") decides the intent."""
    return len(query.fields) >= 3 and bool(query.gpus) and not query.models


def _fields_asked_of_the_card(query: Query, low: str) -> bool:
    """ "What's its memory bandwidth and dense FP16 tensor throughput? We run YOLO + a tracker":
    the question asks the card's figures; the model is said beside it, as the job it is for."""
    if not (query.fields and query.gpus and query.models):
        return False
    asked = next((s for s in re.split(r"(?<=\?)\s+", low) if s.rstrip().endswith("?")), "")
    return bool(_FIELD_QUESTION.search(asked)) and not any(
        m.text.lower() in asked for m in query.models
    )


# a job the user plans, said without a question: "we need to serve ...", "planning to run ..."
_PLANNED_JOB = re.compile(
    r"\b(?:need|needs|want|wants|wanna|plan|plans|planning|going|looking|trying|have|has|hoping"
    r"|about) to (?:serve|run|host|deploy|self-?host|fine-?tune|finetune|train|pretrain|use)\b"
    r"|\b(?:planning|plan) (?:on|for) (?:serving|running|hosting|deploying|fine-?tuning|training)\b"
)


# a follow-up that only swaps what is asked about: "and what about a 3090?", "how about the A6000"
_SWAPPED = re.compile(r"\s*(?:and|ok|okay|so)?[\s,]*(?:what|how) about\b|\s*and (?:the|a|an|for)\b")


def keeps_intent(detected: str, previous: str, query: Query, names_nothing: bool = False) -> bool:
    """A follow-up keeps the previous turn's intent when its own words only change the things
    asked about ("and the A5000?", "what about in 4bit?", "and with 4 of them?", "and budget
    is like $1000 a month" after a recommendation, "and for inference with int8?" after a
    comparison); `names_nothing`: the follow-up names no GPU or model of its own."""
    if previous not in INTENTS or not INTENTS[previous].keeps:
        return False
    if (detected == "cost" and previous in ("recommend", "buy") and query.budget
            and not (query.draw_w and _bill_asked(query, query.low))):  # fmt: skip
        return True  # a budget for the recommendation, not a question about a cost (nor a bill)
    if previous == "rent_or_buy" and detected in ("cost", "buy") and names_nothing:
        return True  # "now include power: 575 W per card, $0.20/kWh": the break-even again
    if (previous == "rent_or_buy" and detected in ("cost", "buy") and query.gpus
            and not query.models and _SWAPPED.match(query.low)):  # fmt: skip
        return True  # "and what about a 3090?": the same break-even, for that card
    weak = ("spec", "search", "explain", "compare", "fit")
    figures = query.user_price_usd_per_hour or query.purchase_usd or query.hours
    if (
        detected == "out_of_scope"
        and names_nothing
        and figures
        and previous in ("cost", "rent_or_buy", "buy")
    ):
        return True  # "right, they came back: $0.75/hr now, same pattern. total?": the sum again
    if detected == "fit" and previous == "cost" and query.models and _FIT_ASKED.search(query.low):
        return False  # "$0.71/hr, 16 h a day: a month? also would llama 8b even fit on it": asked
    if (detected == "fit" and previous in ("recommend", "buy") and query.gpus and query.models
            and _FIT_ASKED.search(query.low)):  # fmt: skip
        return False  # "what card for flux?" then "my 4090 is spare: would flux dev fit on it?"
    settings_only = names_nothing and detected in ("spec", "search")
    money = previous in ("cost", "recommend", "buy", "rent_or_buy")
    return detected in weak and (query.has_model or money or settings_only)
