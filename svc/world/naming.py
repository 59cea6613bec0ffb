"""Names of invented people, by the conventions of their nation.

Each nation draws from one or more pools (Malaysia: Chinese-Malaysian, Malay and Indian
Malaysian names; the United States: from the 1970s on also the names of its Asian
diaspora). A pool gives the given names and family names, the order the BWF writes them in
(family name first in capitals for Chinese, Korean and Vietnamese names: "WANG Zhi Yi";
given name first otherwise: "Mads NIELSEN"), the romanisation (pinyin for China,
Wade-Giles-style for Chinese Taipei, Cantonese for Hong Kong, Hokkien/Cantonese spellings for
Malaysia and Singapore), and the feminine form of family names where a language has one
(IVANOV / IVANOVA, KOWALSKI / KOWALSKA, NOVÁK / NOVÁKOVÁ).

Two rules keep invented people apart from real ones and from each other (`Namer`): no
invented person bears the name of a real player (the names of the shipped BWF data, any
order, case or accent, and the champions in CHAMPIONS), and no two players of one nation
share a full name while both are active.
"""

from __future__ import annotations

import csv
import gzip
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from svc.world.generate.ids import fold

DENIED_FILE = Path(__file__).with_name("denied_names.txt")
REAL_DATA = Path(__file__).parent / "sources" / "data"


@dataclass(frozen=True)
class Pool:
    men: tuple[str, ...]
    women: tuple[str, ...]
    families: tuple[str, ...]
    women_families: tuple[str, ...] | None = None  # explicit feminine family names (cs, gr)
    feminine: str | None = None      # "ova": IVANOV -> IVANOVA, "ska": KOWALSKI -> KOWALSKA
    family_first: bool = False       # written "WANG Zhi Yi"
    syllables: bool = False          # given names are one or two of these syllables ("Zhi Yi")
    two_given: float = 0.0           # share with two given names ("Muhammad Haikal")
    double_family: float = 0.0       # share with two family names ("QUINTANA MAITIN")
    middle: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # Vietnamese middle names


def _w(text: str) -> tuple[str, ...]:
    """A pool written as one comma-separated string (easier to read and review)."""
    return tuple(p.strip() for p in text.split(",") if p.strip())


# The Chinese-language pools share their shape: syllables for given names, family name first.
_CN = Pool(
    _w("Wei, Hao, Yu, Jun, Tao, Jie, Peng, Lei, Bo, Chao, Long, Feng, Xiang, Yang, Hui, Qiang, Ming, Zhi, "
       "Kai, Rui, Xuan, Hong, Cheng, Jian, Bin, Hang, Tian, Yi, Zhe, Shuo, Xin, Ze, Hai, Dong, Gang, Fan, "
       "Sheng, Wen, Xu, Zhen, Liang, Kun, Heng, Song, Yuan"),
    _w("Yu, Xin, Jing, Ting, Yan, Mei, Ling, Fang, Lu, Qian, Xue, Hui, Jia, Yi, Na, Li, Min, Wen, Shan, "
       "Yun, Qing, Rui, Meng, Xiao, Ya, Dan, Han, Yue, Zhi, Man, Shu, Lan, Ying, Hong, Yao, Xi, Lin, Ning, "
       "Jie, Wei"),
    _w("WANG, LI, ZHANG, LIU, CHEN, YANG, HUANG, ZHAO, WU, ZHOU, XU, SUN, MA, ZHU, HU, GUO, HE, GAO, LIN, "
       "LUO, ZHENG, LIANG, XIE, SONG, TANG, HAN, FENG, DENG, CAO, PENG, ZENG, XIAO, TIAN, DONG, PAN, YUAN, "
       "CAI, JIANG, YU, DU, YE, CHENG, WEI, SU, LU, DING, REN, SHEN, YAO, JIA, FU, FANG, BAI, ZOU, MENG, "
       "XIONG, QIN, QIU, HOU, SHI"),
    family_first=True, syllables=True)
_TW = Pool(
    _w("Tzu, Chia, Hsin, Yu, Wei, Chen, Tien, Ching, Hsiang, Po, Han, Chun, Yi, Kuan, Hung, Sheng, Yen, "
       "Jen, Hao, Chuan, Chieh, Ming, Cheng, Lung, Kai, Hsuan, Wen, Chih, Tsung, Yao"),
    _w("Tzu, Ying, Chia, Hsin, Yu, Ting, Ching, Hui, Pei, Shan, Jui, Li, Mei, Fang, Yen, Chi, Hsuan, Wen, "
       "Chun, Yi, Han, Ya, Szu, Ling, Chen, Hsiu, Tung, Ning"),
    _w("CHEN, LIN, HUANG, CHANG, LEE, WANG, WU, LIU, TSAI, YANG, HSU, CHENG, HSIEH, HUNG, KUO, CHIU, TSENG, "
       "LIAO, LAI, CHOU, YEH, SU, CHUANG, LU, CHIANG, HO, LO, KAO, PAN, CHIEN, TAI, FANG, HSIAO, SUNG, TUNG"),
    family_first=True, syllables=True)
_HK = Pool(
    _w("Ka, Long, Cheuk, Yiu, Chun, Hei, Wing, Kit, Man, Tsz, Hin, Lok, Chi, Fung, Ho, Hoi, Kwan, Wai, "
       "Shing, Ming, Kin, Yat, Pak, Tak, Sun, Ting, Chak, Hong"),
    _w("Ying, Suet, Wing, Yan, Pui, Yee, Kwan, Sze, Man, Ka, Yuet, Nga, Hoi, Lam, Wai, Tsz, Ching, Mei, "
       "Oi, Sum, Lai, Hiu, Yi, Fung, Ting, Lok"),
    _w("CHAN, WONG, LEE, NG, CHEUNG, LAU, TANG, YEUNG, LAM, CHOW, TSE, LAW, FUNG, YIP, MOK, KWOK, HO, "
       "LEUNG, AU, TAM, CHIU, CHENG, SIN, LO, KWAN, TSANG, YUEN, POON, LUI, CHUNG"),
    family_first=True, syllables=True)
_MY_CN = Pool(
    _w("Zii, Jia, Kean, Yew, Wei, Chong, Boon, Heong, Kok, Keong, Jun, Hao, Soon, Huat, Wooi, Yik, Man, "
       "Chun, Seang, Kang, Jian, Tze, Kai, Sheng, Hong, Eng, Teck, Khai, Shen, Jin"),
    _w("Sze, Fei, Mei, Kuan, Ling, Pei, Jing, Yi, Ting, Ee, Chyi, Hui, Xin, Yan, Wei, Shan, Min, Jie, Yee, "
       "Qi, Wen, Li, Xuan, Siew, Kim, Lian"),
    _w("LEE, TAN, LIM, ONG, GOH, NG, TEO, CHAN, WONG, YEO, LOW, CHIA, SOON, KOO, TEE, CHOONG, LIEW, HOO, "
       "AW, YAP, KHOO, CHEAH, OOI, LAI, LOH, SIM, TEOH, CHIN, FOO, GAN"),
    family_first=True, syllables=True)
_SG_CN = Pool(
    _w("Kean, Yew, Jia, Heng, Wei, Jie, Xuan, Hui, Min, Shi, Jun, Yong, Zhi, Kai, Rui, Jin, Hao, Sheng, "
       "Wen, Zheng, Boon, Teck, Kiat, Siang"),
    _w("Ting, Ling, Xin, Yu, Qi, En, Hui, Min, Jia, Wei, Shu, Yan, Li, Jing, Xuan, Pei, Yi, Wen, Mei, Zhen"),
    _w("LOH, TAN, LIM, TEO, ONG, GOH, CHUA, HENG, KOH, ANG, NG, SIM, YEO, TAY, LEE, QUEK, WEE, SEAH, TOH, "
       "CHEW, PHUA, LOW, KWEK, YAP"),
    family_first=True, syllables=True)
_MALAY_MEN = ("Muhammad, Mohd, Ahmad, Haikal, Izzuddin, Aidil, Hafiz, Irfan, Syahmi, Amirul, Faiz, Azri, "
              "Razif, Danial, Hakim, Aiman, Firdaus, Shafiq, Zulfadli, Iskandar, Nabil, Arif, Fikri, Adib")
_MALAY_WOMEN = ("Nur, Siti, Aisyah, Farah, Nurul, Amira, Syafiqah, Hanis, Izzati, Athirah, Aina, Balqis, "
                "Sofea, Nadia, Damia, Zahra, Anis, Qistina, Hana, Alya")
_MALAY = Pool(
    _w(_MALAY_MEN), _w(_MALAY_WOMEN),
    _w("HASHIM, ISMAIL, RAHMAN, YUSOF, OSMAN, ZAKARIA, RAZAK, ARIFIN, JAMALUDDIN, SALLEH, MAHMUD, AZIZ, "
       "KAMARUDIN, ROSLI, HAMID, ABDULLAH, HUSSIN, MOHAMAD, NORDIN, SULAIMAN, ZAINAL, RAMLI"),
    two_given=0.6)
_TAMIL = Pool(
    _w("Sathish, Kavin, Sumanth, Arun, Vignesh, Dinesh, Naveen, Pravin, Ganesh, Rajesh, Suresh, Kumaran, "
       "Tharun, Vinod"),
    _w("Letshanaa, Devi, Priya, Kavitha, Thivya, Shalini, Yamuna, Nithya, Deepa, Sharmila, Kalai, Vanitha"),
    _w("SUBRAMANIAM, KRISHNAN, MUNIANDY, RAMASAMY, ARUMUGAM, PILLAI, NAIR, RAJOO, VELU, GOVINDASAMY, "
       "SINNIAH, MARIMUTHU, NADARAJAH, PERUMAL"))
_JP = Pool(
    _w("Haruto, Ren, Sota, Yuto, Kaito, Riku, Daiki, Shota, Ryo, Takumi, Kazuki, Naoki, Tomoya, Hayato, "
       "Kenji, Masato, Koki, Yusuke, Shun, Tatsuya, Hiroki, Ryota, Yuya, Kota, Akira, Makoto, Sho, Taiga, "
       "Keita, Shunsuke, Takeshi, Hiroshi, Satoshi, Ryusei, Minato, Itsuki, Sosuke, Genki"),
    _w("Yui, Aoi, Hina, Sakura, Rin, Mio, Saki, Miyu, Nana, Haruka, Ayumi, Kana, Mai, Natsuki, Risa, Yuna, "
       "Moe, Asuka, Chika, Erika, Kaori, Megumi, Naomi, Rika, Shiori, Tomoko, Yoko, Ami, Honoka, Kokona, "
       "Riko, Wakana, Momoka, Nao"),
    _w("SATO, SUZUKI, TANAKA, ITO, NAKAMURA, KATO, YOSHIDA, YAMADA, SASAKI, YAMAMOTO, MATSUMOTO, INOUE, "
       "KIMURA, HAYASHI, SHIMIZU, YAMAZAKI, MORI, ABE, IKEDA, HASHIMOTO, ISHIKAWA, OGAWA, OKADA, MAEDA, "
       "FUJITA, GOTO, OKAMOTO, HASEGAWA, MURAKAMI, KONDO, ISHII, SAKAMOTO, ENDO, AOKI, FUJII, NISHIMURA, "
       "FUKUDA, OTA, MIURA, TAKEUCHI, NAKANO, HARADA, ONO, TAMURA, KUBO, SUGIYAMA, HIRANO, NOMURA"))
_KR = Pool(
    _w("Dong, Min, Sung, Hyun, Jun, Seung, Woo, Jae, Ho, Young, Jin, Hoon, Sang, Chul, Kyu, Tae, Seok, "
       "Gyu, Hwan, Yong, Joon, Hyuk, Won, Beom, Chan, Geon, Wook"),
    _w("Ji, Hye, Eun, Seo, Min, Yeon, Soo, Hee, Young, Jung, Ah, Yoon, Ha, Na, Rin, Kyung, Sun, Mi, Ye, "
       "Won, Bin, Jin, Hyun, Seul, Da"),
    _w("KIM, LEE, PARK, CHOI, JUNG, KANG, CHO, YOON, JANG, LIM, HAN, OH, SEO, SHIN, KWON, HWANG, AHN, "
       "SONG, YOO, HONG, JEON, KO, MOON, YANG, SON, BAE, BAEK, HEO, NAM, NOH, HA, JOO, WOO"),
    family_first=True, syllables=True)
_VN = Pool(
    _w("Anh, Duy, Hai, Hung, Khoa, Long, Nam, Phong, Quan, Son, Tuan, Vinh, Bao, Dat, Hieu, Khang, Lam, "
       "Phuc, Tai, Trung, Thang, Cuong, Kien, Loc"),
    _w("Anh, Hoa, Huong, Lan, Linh, Mai, Nga, Nhung, Phuong, Quynh, Thao, Trang, Tuyet, Van, Vy, Yen, Ha, "
       "Hang, Chi, My, Ngan, Tam"),
    _w("NGUYEN, TRAN, LE, PHAM, HOANG, VU, VO, DANG, BUI, DO, HO, NGO, DUONG, LY, TRUONG, DAO, PHAN, DINH, "
       "LAM, MAI, TRINH, CAO"),
    family_first=True, middle=(_w("Van, Duc, Minh, Quang, Huu, Thanh, Hoang, Tien, Cong, Dinh"),
                               _w("Thi, Ngoc, Thu, Thanh, Bao, Kim, Minh, Hong, Phuong, Thuy")))
_ID = Pool(
    _w("Ahmad, Rizky, Fajar, Dwi, Agus, Bagas, Rian, Daniel, Ikhsan, Aditya, Bima, Putra, Gilang, Wahyu, "
       "Yogi, Dimas, Reza, Arif, Ricky, Leo, Krisna, Alvi, Rehan, Ferdinand, Budi, Irfan, Sabar, Bayu, "
       "Eko, Hari, Joko, Rangga, Teguh, Yudha, Andika, Galih, Raka, Satria"),
    _w("Putri, Siti, Ayu, Dewi, Rina, Febriana, Nita, Indah, Melati, Tiara, Sekar, Stephanie, Amalia, "
       "Adinda, Fitriani, Ester, Bernadine, Yulia, Intan, Citra, Kartika, Maharani, Nadia, Rahma, Sinta, "
       "Wulan, Yuni, Anggun, Dinda, Laras"),
    _w("SANTOSO, WIJAYA, PRATAMA, SAPUTRA, KUSUMA, HARTANTO, GUNAWAN, SETIADI, NUGROHO, WIBOWO, PURNOMO, "
       "HALIM, SUSANTO, SIREGAR, SIMANJUNTAK, HASIBUAN, LUBIS, MANURUNG, TAMBUNAN, LAKSONO, MAULANA, "
       "RAMADHAN, FIRMANSYAH, ALAMSYAH, HARDIANTO, IRAWAN, KURNIAWAN, PANGESTU, WIRATAMA, MULYADI, "
       "SYAHPUTRA, PRASETYO, HANDOKO, TANUWIJAYA, SUBAGJA, WARDHANA, PERMANA, HERMAWAN"),
    two_given=0.4)
_TH = Pool(
    _w("Kittipong, Sitthichai, Natthapong, Phakin, Chayut, Surachai, Thanawat, Apichart, Wisarut, "
       "Ratchapol, Sorawit, Teeraphat, Nattawut, Pakorn, Jakkrit, Tanongsak, Somchai, Pongsakorn, Anucha, "
       "Chanon, Kritsada, Narongrit, Pichit, Sarawut, Thiti, Warut, Weerapat, Yossapol"),
    _w("Pornpicha, Ratchada, Nichaon, Chasinee, Nuntakarn, Kwanjira, Laksika, Porntip, Jongrak, "
       "Saowaluck, Sirada, Thidarat, Waraporn, Arisa, Kamonwan, Kulwadee, Natcha, Orawan, Panida, "
       "Rattana, Siriporn, Sukanya, Tanaporn, Wilaiwan, Yupaporn, Chalida"),
    _w("SUKSAWAT, CHAIYAPHUM, SRISAWAT, THONGCHAI, WONGSAWAT, SAENGTHONG, BOONMA, KAEWMANEE, RATTANAPHON, "
       "SOMBATPHON, THAMMAWONG, PHROMPHAN, SUWANNARAT, SIRIWAT, CHAROENSUK, TANGSIRI, JAROENKIT, "
       "PANYAWONG, INTHARAKUL, KANCHANAPHON, NAKSAWAT, KHAMWAN, SRIPHAN, WONGKHAM, PRASERTSUK, "
       "BUNNAK, CHANTHAWONG, PHUMMARIN, SAETANG, WATTANAKUL"))
_IN = Pool(
    _w("Arjun, Rohan, Vikram, Siddharth, Karthik, Rahul, Aditya, Pranav, Harsh, Aniket, Varun, Nikhil, "
       "Abhishek, Manish, Tarun, Rithvik, Sumeet, Kiran, Ajay, Sourabh, Anand, Dhruv, Vishnu, Arun, "
       "Krishna, Gaurav, Mithun, Sandeep, Rajesh, Vignesh, Yash, Om, Ishaan, Pradeep, Sunil"),
    _w("Aakanksha, Riya, Ananya, Sneha, Pooja, Divya, Kavya, Meghna, Shruti, Nandini, Anjali, Tanvi, "
       "Aditi, Ishita, Simran, Priya, Keerthi, Lakshmi, Neha, Ritika, Sanjana, Mansi, Tanya, Swati, "
       "Deepika, Harini, Isha, Madhuri, Revathi, Shreya"),
    _w("SHARMA, KUMAR, REDDY, RAO, NAIDU, IYER, NAIR, MENON, SINGH, GUPTA, JOSHI, PATIL, DESAI, KULKARNI, "
       "CHOPRA, MEHTA, BHATT, PILLAI, DAS, GHOSH, BOSE, MISHRA, YADAV, CHAUDHARY, THAKUR, SAINI, KAPOOR, "
       "RAJPUT, SHINDE, PRASAD, AGARWAL, BANERJEE, DUTTA, HEGDE, PANDEY, TIWARI, SAXENA, KAMATH"))
_NP = Pool(
    _w("Bishal, Sagar, Ramesh, Suman, Anish, Prabin, Roshan, Niraj, Dipesh, Bikash, Sujan, Rajan, Kiran, "
       "Sanjeev, Pawan, Amrit, Bibek, Sushil"),
    _w("Sabina, Anjana, Sarita, Pratima, Nirmala, Sunita, Asmita, Rojina, Puja, Srijana, Kabita, "
       "Ranjita, Samjhana, Bimala, Sushma, Manisha"),
    _w("SHRESTHA, TAMANG, GURUNG, RAI, MAGAR, THAPA, KARKI, ADHIKARI, POUDEL, BHANDARI, SHERPA, LAMA, "
       "BASNET, MAHARJAN, KHADKA, LIMBU, BHATTARAI, KOIRALA, GHIMIRE, SUBEDI"))
_LK = Pool(
    _w("Dilshan, Kasun, Chamara, Nuwan, Lahiru, Tharindu, Sachin, Isuru, Pasindu, Chathura, Sandun, "
       "Ruwan, Kavinda, Supun, Dinuka, Janith"),
    _w("Dilini, Thilini, Kavindi, Chamodi, Nadeesha, Hasini, Sachini, Ishara, Rashmi, Nethmi, Madushi, "
       "Sewwandi, Upeksha, Imesha"),
    _w("PERERA, FERNANDO, SILVA, JAYASINGHE, WICKRAMASINGHE, BANDARA, DISSANAYAKE, RATNAYAKE, GUNAWARDENA, "
       "HERATH, WIJESINGHE, SENEVIRATNE, WEERASINGHE, ABEYSEKARA, JAYAWARDENA, KUMARASINGHE, RANASINGHE, "
       "AMARASINGHE"))
_PK = Pool(
    _w("Muhammad, Ali, Ahmed, Usman, Hamza, Bilal, Irfan, Umair, Zeeshan, Faisal, Kashif, Waqas, Murad, "
       "Asad, Danish, Fahad, Haris, Junaid, Saad, Taimoor"),
    _w("Ayesha, Fatima, Sana, Mahnoor, Hira, Zainab, Amna, Sadia, Noor, Rabia, Areeba, Iqra, Maryam, "
       "Sidra, Khadija, Anum"),
    _w("KHAN, AHMED, MALIK, BUTT, QURESHI, SHAH, CHAUDHRY, ABBASI, MIRZA, SIDDIQUI, HUSSAIN, AKHTAR, RAZA, "
       "JAVED, IQBAL, SHEIKH, BHATTI, AWAN, RANA, GILANI"),
    two_given=0.3)
_BD = Pool(
    _w("Rahim, Kamrul, Shahriar, Tanvir, Rakib, Ashikur, Mahmud, Arif, Sabbir, Nazmul, Jubayer, Imran, "
       "Sakib, Mehedi, Rubel, Sohel"),
    _w("Nusrat, Sumaiya, Tahmina, Farzana, Shirin, Rumana, Sadia, Jannat, Afsana, Sharmin, Tania, Sabrina, "
       "Mahmuda, Rupa"),
    _w("HOSSAIN, RAHMAN, ISLAM, AHMED, CHOWDHURY, UDDIN, ALAM, SARKAR, MIAH, BISWAS, ROY, DAS, HAQUE, "
       "KARIM, MOLLAH, SIKDER, TALUKDER, BHUIYAN"))
_EN = Pool(
    _w("James, Jack, Oliver, Harry, Thomas, William, George, Charlie, Daniel, Samuel, Joshua, Matthew, "
       "Benjamin, Luke, Adam, Ryan, Alexander, Joseph, Callum, Jamie, Liam, Ethan, Nathan, Michael, "
       "Christopher, Andrew, Robert, Richard, Stephen, Mark, Paul, David, Peter, John, Simon, Martin, Neil, "
       "Gareth, Ross, Fraser, Rhys, Owen, Edward, Henry, Arthur, Frederick, Albert, Leonard, Ernest, "
       "Walter, Harold, Stanley, Douglas, Kenneth, Graham, Colin, Keith, Tom"),
    _w("Emily, Olivia, Jessica, Sophie, Charlotte, Hannah, Lucy, Amy, Laura, Rebecca, Lauren, Katie, Emma, "
       "Chloe, Megan, Rachel, Sarah, Holly, Beth, Eleanor, Abigail, Grace, Jennifer, Helen, Claire, Alison, "
       "Joanne, Kathryn, Fiona, Kirsty, Rhian, Gemma, Victoria, Natalie, Zoe, Edith, Dorothy, Florence, "
       "Mabel, Winifred, Muriel, Marjorie, Joan, Betty, Barbara, Patricia, Susan, Linda, Karen, Wendy"),
    _w("SMITH, JONES, WILLIAMS, TAYLOR, BROWN, DAVIES, EVANS, WILSON, THOMAS, JOHNSON, ROBERTS, ROBINSON, "
       "THOMPSON, WRIGHT, WALKER, WHITE, EDWARDS, HUGHES, GREEN, HALL, LEWIS, HARRIS, CLARKE, JACKSON, "
       "WOOD, TURNER, MARTIN, COOPER, HILL, WARD, MORRIS, MOORE, CLARK, KING, BAKER, HARRISON, MORGAN, "
       "ALLEN, JAMES, SCOTT, PHILLIPS, WATSON, DAVIS, PARKER, PRICE, BENNETT, YOUNG, GRIFFITHS, MITCHELL, "
       "KELLY, COOK, CARTER, RICHARDSON, BAILEY, COLLINS, BELL, SHAW, MILLER, COX, RICHARDS, MARSHALL, "
       "ANDERSON, SIMPSON, ELLIS, ADAMS, WILKINSON, FOSTER, CHAPMAN, POWELL, WEBB, ROGERS, GRAY, MASON, "
       "HUNT, CAMPBELL, MATTHEWS, OWEN, PALMER, HOLMES, MILLS, BARNES, KNIGHT, LLOYD, BUTLER, RUSSELL, "
       "BARKER, FISHER, STEVENS, JENKINS, MURRAY, DIXON, HARVEY, GRAHAM, PEARSON, FLETCHER, GIBSON, "
       "HOWARD, ANDREWS, STEWART, ELLIOTT, REYNOLDS, SAUNDERS, PAYNE, FOX, FORD, PEARCE, BROOKS, "
       "LAWRENCE, ATKINSON, BRADLEY, SPENCER, DAWSON, BURTON, WATTS, BOOTH, PERRY, GRANT, WELLS, "
       "ARMSTRONG, FRANCIS, REES, HAYES, HUDSON, NEWMAN, BARRETT, WEBSTER, HUNTER, GREGORY, MARSH, "
       "JOHNSTON, DUNCAN, MACDONALD, FRASER, MACKENZIE, SUTHERLAND, MORRISON, PATERSON"))
_IE = Pool(
    _w("Seán, Ciarán, Conor, Darragh, Cian, Oisín, Eoin, Niall, Colm, Patrick, Declan, Ronan, Cathal, "
       "Fionn, Diarmuid, Kevin, Brian, Liam, Padraig, Donal, Aidan, Shane"),
    _w("Aoife, Niamh, Siobhán, Ciara, Róisín, Orla, Saoirse, Clodagh, Aisling, Caoimhe, Sinéad, Gráinne, "
       "Emer, Máire, Deirdre, Nuala, Bríd, Eimear"),
    _w("MURPHY, KELLY, O'SULLIVAN, WALSH, O'BRIEN, BYRNE, RYAN, O'CONNOR, O'NEILL, O'REILLY, DOYLE, "
       "MCCARTHY, GALLAGHER, DOHERTY, KENNEDY, LYNCH, QUINN, MCLOUGHLIN, CARROLL, CONNOLLY, DALY, "
       "FITZGERALD, NOLAN, BRENNAN, BURKE, FLYNN, MCGRATH, DUNNE, FARRELL, KAVANAGH, HEALY, MAGUIRE"))
_US_ASIAN = Pool(
    _w("Kevin, Brian, Eric, Jason, Timothy, Andrew, Ryan, Justin, Vincent, Howard, Daniel, Phillip, "
       "Derek, Calvin, Nathan, Allen, Kenneth, Raymond"),
    _w("Jennifer, Michelle, Christina, Amanda, Vivian, Grace, Iris, Annie, Crystal, Angela, Tiffany, "
       "Stephanie, Karen, Esther, Natalie, Sabrina"),
    _w("CHEN, WANG, LI, ZHANG, LIU, NGUYEN, TRAN, KIM, PARK, LEE, WONG, CHAN, LAM, HO, YU, PATEL, SHAH, "
       "REDDY, NAIR, HUANG, TANG, LIN, WU, CHO, CHUNG"))
_DK = Pool(
    _w("Mads, Rasmus, Mikkel, Frederik, Emil, Oliver, Magnus, Jonas, Christian, Kasper, Anders, Søren, "
       "Jesper, Thomas, Nikolaj, Mathias, Jeppe, Kristian, Lasse, Martin, Mikael, Niclas, Carsten, Henrik, "
       "Jakob, Torben, Flemming, Erik, Poul, Svend, Aksel, Bo, Kim, Steen"),
    _w("Mette, Camilla, Julie, Maria, Sofie, Ida, Freja, Emma, Sara, Line, Mia, Anne, Louise, Cecilie, "
       "Katrine, Signe, Mathilde, Amalie, Nanna, Trine, Karina, Stine, Birgitte, Inge, Grethe, Lone, Hanne, "
       "Pernille, Rikke, Tove, Ulla"),
    _w("NIELSEN, JENSEN, HANSEN, PEDERSEN, ANDERSEN, CHRISTENSEN, LARSEN, SØRENSEN, RASMUSSEN, JØRGENSEN, "
       "PETERSEN, MADSEN, KRISTENSEN, OLSEN, THOMSEN, CHRISTIANSEN, POULSEN, JOHANSEN, MØLLER, MORTENSEN, "
       "KNUDSEN, JAKOBSEN, MIKKELSEN, OLESEN, FREDERIKSEN, LAURSEN, HENRIKSEN, LUND, HOLM, KJÆR, "
       "VESTERGAARD, DAMGAARD, BACH, NØRGAARD, BJERRE, BRUUN, SKOV, DAHL, ØSTERGAARD, LINDHOLM"))
_SE = Pool(
    _w("Erik, Lars, Karl, Anders, Johan, Per, Nils, Mikael, Fredrik, Oscar, Gustav, Axel, Viktor, Linus, "
       "Filip, Simon, Elias, Hampus, Pontus, Albin, Gunnar, Bengt, Sture, Ulf"),
    _w("Anna, Eva, Maria, Karin, Sara, Emma, Elin, Ida, Johanna, Linnea, Frida, Matilda, Moa, Ebba, Hanna, "
       "Klara, Malin, Sofia, Ingrid, Birgitta, Margareta, Kerstin"),
    _w("JOHANSSON, ANDERSSON, KARLSSON, NILSSON, ERIKSSON, LARSSON, OLSSON, PERSSON, SVENSSON, GUSTAFSSON, "
       "PETTERSSON, JONSSON, JANSSON, HANSSON, BENGTSSON, LINDBERG, LINDQVIST, LUNDGREN, BERGSTRÖM, "
       "SANDBERG, LINDSTRÖM, HOLMBERG, EKSTRÖM, SJÖBERG, WALLIN, ENGSTRÖM, FORSBERG, HEDLUND"))
_NO = Pool(
    _w("Ole, Lars, Magnus, Henrik, Sindre, Eirik, Sondre, Håkon, Jonas, Martin, Kristian, Torstein, "
       "Vegard, Espen, Marius, Bjørnar, Knut, Arne"),
    _w("Ingrid, Kari, Silje, Ingvild, Marte, Thea, Nora, Hedda, Ida, Solveig, Tonje, Maren, Siri, Astrid, "
       "Ragnhild, Synnøve"),
    _w("HANSEN, JOHANSEN, OLSEN, LARSEN, ANDERSEN, PEDERSEN, NILSEN, KRISTIANSEN, JENSEN, KARLSEN, "
       "JOHNSEN, PETTERSEN, ERIKSEN, BERG, HAUGEN, HAGEN, JOHANNESSEN, ANDREASSEN, JACOBSEN, DAHL, LUND, "
       "HALVORSEN, SOLBERG, STRAND, BAKKE, MOEN"))
_FI = Pool(
    _w("Juho, Eetu, Aleksi, Ville, Mikko, Janne, Antti, Matti, Jussi, Lauri, Teemu, Joonas, Tuomas, Kalle, "
       "Onni, Otto, Elias, Veeti, Pekka, Kari"),
    _w("Aino, Emma, Sanni, Laura, Anni, Henna, Jenni, Noora, Iida, Veera, Elina, Kaisa, Minna, Riikka, "
       "Salla, Milla, Pirjo, Tuula"),
    _w("KORHONEN, VIRTANEN, MÄKINEN, NIEMINEN, MÄKELÄ, HÄMÄLÄINEN, LAINE, HEIKKINEN, KOSKINEN, JÄRVINEN, "
       "LEHTONEN, LEHTINEN, SAARINEN, SALMINEN, HEINONEN, NIEMI, HEIKKILÄ, KINNUNEN, SALONEN, TURUNEN, "
       "SALO, LAITINEN, TUOMINEN, RANTANEN, KARJALAINEN"))
_NL = Pool(
    _w("Daan, Sem, Thijs, Bram, Lars, Ruben, Jesse, Niels, Joris, Stijn, Koen, Jelle, Wouter, Pieter, "
       "Sander, Robin, Jeroen, Bas, Tom, Maarten, Dirk, Hendrik, Wim, Jan"),
    _w("Sanne, Lotte, Femke, Eva, Anouk, Lisa, Iris, Fleur, Maud, Esther, Marieke, Ilse, Noor, Julia, "
       "Sophie, Lieke, Judith, Annelies, Margriet, Ineke, Els, Wendy"),
    _w("DE JONG, JANSEN, DE VRIES, VAN DEN BERG, VAN DIJK, BAKKER, JANSSEN, VISSER, SMIT, MEIJER, DE BOER, "
       "MULDER, DE GROOT, BOS, VOS, PETERS, HENDRIKS, VAN LEEUWEN, DEKKER, BROUWER, DE WIT, DIJKSTRA, "
       "SMITS, DE GRAAF, VAN DER MEER, VAN DER LINDEN, KOK, JACOBS, DE HAAN, VERMEULEN, MAES, WILLEMS, "
       "CLAES, GOOSSENS, WOUTERS, PEETERS"))
_DE = Pool(
    _w("Lukas, Leon, Jonas, Felix, Maximilian, Paul, Niklas, Tim, Jan, Florian, Tobias, Simon, Moritz, "
       "Philipp, Sebastian, Daniel, Matthias, Johannes, Fabian, David, Kai, Marvin, Dominik, Julian, "
       "Markus, Wolfgang, Günter, Klaus, Manfred, Uwe, Jürgen, Dieter"),
    _w("Anna, Lena, Laura, Lisa, Julia, Sarah, Hannah, Lea, Johanna, Katharina, Sophie, Franziska, Miriam, "
       "Carolin, Jana, Nina, Annika, Vanessa, Stefanie, Theresa, Ursula, Brigitte, Monika, Renate, "
       "Gisela, Sabine"),
    _w("MÜLLER, SCHMIDT, SCHNEIDER, FISCHER, WEBER, MEYER, WAGNER, BECKER, SCHULZ, HOFFMANN, SCHÄFER, "
       "KOCH, BAUER, RICHTER, KLEIN, WOLF, SCHRÖDER, NEUMANN, SCHWARZ, ZIMMERMANN, BRAUN, KRÜGER, HOFMANN, "
       "HARTMANN, LANGE, SCHMITT, WERNER, KRAUSE, MEIER, LEHMANN, HUBER, GRUBER, STEINER, MOSER, BRUNNER, "
       "KELLER, FREI, GERBER"))
_FR = Pool(
    _w("Thomas, Lucas, Hugo, Léo, Louis, Nathan, Théo, Maxime, Antoine, Julien, Nicolas, Alexandre, "
       "Romain, Baptiste, Quentin, Mathieu, Pierre, Clément, Florian, Gaëtan, Kévin, Arnaud, Bastien, "
       "Yanis, Samuel, Henri, Marcel, Jacques, Jean, Michel"),
    _w("Camille, Léa, Manon, Chloé, Emma, Inès, Sarah, Julie, Pauline, Marine, Océane, Margaux, Lucie, "
       "Anaïs, Mathilde, Clara, Elsa, Justine, Charlotte, Émilie, Jeanne, Simone, Madeleine, Yvette, "
       "Sylvie, Nathalie"),
    _w("MARTIN, BERNARD, DUBOIS, THOMAS, ROBERT, RICHARD, PETIT, DURAND, LEROY, MOREAU, SIMON, LAURENT, "
       "LEFEBVRE, MICHEL, DAVID, BERTRAND, ROUX, VINCENT, FOURNIER, MOREL, GIRARD, ANDRÉ, MERCIER, DUPONT, "
       "LAMBERT, BONNET, FRANÇOIS, LEGRAND, GAUTHIER, PERRIN, ROUSSEAU, FAURE, BLANC, GUÉRIN, BOYER, "
       "CHEVALIER, CLÉMENT, GAUTIER, MASSON, DENIS"))
_ES = Pool(
    _w("Pablo, Javier, Alejandro, Daniel, David, Sergio, Álvaro, Jorge, Manuel, Raúl, Iván, Rubén, "
       "Alberto, Miguel, Hugo, Diego, Andrés, Luis, Carlos, Fernando, Gonzalo, Tomás, Emilio, Julián, "
       "Sebastián, Eduardo, Ricardo, Héctor, Óscar, Ignacio"),
    _w("Lucía, Paula, Marta, Laura, Andrea, Irene, Cristina, Elena, Sara, Alba, Raquel, Nerea, Claudia, "
       "Ainhoa, Beatriz, Isabel, Rocío, Valeria, Daniela, Camila, Gabriela, Ximena, Mariana, Fernanda, "
       "Natalia, Carmen, Pilar"),
    _w("GARCÍA, RODRÍGUEZ, GONZÁLEZ, FERNÁNDEZ, LÓPEZ, MARTÍNEZ, SÁNCHEZ, PÉREZ, GÓMEZ, MARTÍN, JIMÉNEZ, "
       "RUIZ, HERNÁNDEZ, DÍAZ, MORENO, MUÑOZ, ÁLVAREZ, ROMERO, ALONSO, GUTIÉRREZ, NAVARRO, TORRES, "
       "DOMÍNGUEZ, VÁZQUEZ, RAMOS, GIL, SERRANO, BLANCO, MOLINA, CASTRO, ORTIZ, RUBIO, SANZ, IGLESIAS, "
       "MEDINA, CORTÉS, CASTILLO, VEGA, FLORES, REYES, AGUILAR, MENDOZA, ROJAS, SALAZAR, QUISPE"),
    two_given=0.15, double_family=0.3)
_PT = Pool(
    _w("João, Pedro, Lucas, Gabriel, Mateus, Rafael, Gustavo, Felipe, Thiago, Bruno, Vinícius, Leonardo, "
       "Artur, Caio, Davi, Eduardo, Henrique, Murilo, Rodrigo, Samuel"),
    _w("Ana, Beatriz, Juliana, Fernanda, Mariana, Larissa, Camila, Letícia, Jaqueline, Fabiana, Luana, "
       "Tamires, Bianca, Carolina, Débora, Gabriela, Isabela, Raquel, Sabrina, Vitória"),
    _w("SILVA, SANTOS, OLIVEIRA, SOUZA, RODRIGUES, FERREIRA, ALVES, PEREIRA, LIMA, GOMES, COSTA, RIBEIRO, "
       "MARTINS, CARVALHO, ALMEIDA, LOPES, BARBOSA, ARAÚJO, CARDOSO, ROCHA, DIAS, NASCIMENTO, MOREIRA, "
       "CAVALCANTI, MONTEIRO"),
    two_given=0.3, double_family=0.2)
_IT = Pool(
    _w("Marco, Luca, Alessandro, Matteo, Giovanni, Andrea, Francesco, Lorenzo, Davide, Simone, Riccardo, "
       "Stefano, Giuseppe, Paolo, Fabio, Roberto"),
    _w("Giulia, Francesca, Chiara, Sara, Martina, Elisa, Alessia, Valentina, Federica, Silvia, Giorgia, "
       "Elena, Paola, Roberta"),
    _w("ROSSI, RUSSO, FERRARI, ESPOSITO, BIANCHI, ROMANO, COLOMBO, RICCI, MARINO, GRECO, BRUNO, GALLO, "
       "CONTI, DE LUCA, MANCINI, COSTA, GIORDANO, RIZZO, LOMBARDI, MORETTI, BARBIERI, FONTANA, SANTORO"))
_PH = Pool(
    _w("Mark, John, Christian, Jewel, Rodel, Ariel, Paul, Kenneth, Jerico, Carlo, Miguel, Ralph, Arvin, "
       "Joseph, Ronald, Jayson, Enrico, Rafael"),
    _w("Mary, Grace, Kim, Joy, Althea, Princess, Jessa, Bianca, Thea, Andrea, Sarah, Kristine, Mae, "
       "Angelica, Patricia, Camille"),
    _w("REYES, CRUZ, BAUTISTA, OCAMPO, MENDOZA, GARCIA, TORRES, AQUINO, DELA CRUZ, SANTOS, CASTILLO, "
       "VILLANUEVA, RAMOS, GONZALES, FLORES, NAVARRO, MACARAEG, DIZON, MANALO, PASCUAL, SORIANO, TOLENTINO"),
    two_given=0.3)
_RU_MEN = ("Aleksandr, Dmitry, Sergey, Andrey, Aleksey, Maksim, Ivan, Mikhail, Nikolay, Pavel, Artem, "
           "Denis, Roman, Yevgeny, Kirill, Vladislav, Ilya, Anton, Georgy, Rodion, Vadim, Egor, Boris, Yuri")
_RU_WOMEN = ("Anna, Maria, Elena, Olga, Natalia, Tatiana, Irina, Ekaterina, Svetlana, Yulia, Anastasia, "
             "Daria, Polina, Viktoria, Alina, Kristina, Valeria, Evgenia, Sofia, Lyudmila, Galina")
_RU = Pool(
    _w(_RU_MEN), _w(_RU_WOMEN),
    _w("IVANOV, SMIRNOV, KUZNETSOV, POPOV, VASILYEV, PETROV, SOKOLOV, MIKHAILOV, NOVIKOV, FYODOROV, "
       "MOROZOV, VOLKOV, ALEKSEYEV, LEBEDEV, SEMYONOV, YEGOROV, PAVLOV, KOZLOV, STEPANOV, NIKOLAYEV, "
       "ORLOV, ANDREYEV, MAKAROV, ZAKHAROV, ZAITSEV, SOLOVYOV, BORISOV, YAKOVLEV, GRIGORYEV, ROMANOV, "
       "VOROBYOV, SERGEYEV, BELOV, TARASOV, KOMAROV, KISELYOV, GUSEV, TITOV, KOVALEVSKY, ZHUKOVSKY"),
    feminine="ova")
_UA = Pool(
    _w("Oleksandr, Andriy, Serhiy, Volodymyr, Dmytro, Mykola, Yuriy, Vitaliy, Bohdan, Taras, Artem, "
       "Maksym, Oleh, Yaroslav, Vasyl"),
    _w("Olena, Oksana, Nataliya, Iryna, Tetiana, Yuliya, Kateryna, Mariya, Anastasiya, Daria, Khrystyna, "
       "Viktoriya, Sofiia, Halyna, Larysa"),
    _w("SHEVCHENKO, BONDARENKO, KOVALENKO, BOYKO, TKACHENKO, KRAVCHENKO, KOVALCHUK, OLIYNYK, SHEVCHUK, "
       "POLISHCHUK, LYSENKO, MARCHENKO, MELNYK, SAVCHENKO, RUDENKO, MOROZ, PAVLENKO, KLYMENKO, PETRENKO, "
       "HONCHARENKO, SYDORENKO, DANYLYUK"))
_PL = Pool(
    _w("Jakub, Kacper, Szymon, Mateusz, Piotr, Michał, Adam, Paweł, Tomasz, Krzysztof, Marcin, Łukasz, "
       "Wojciech, Bartosz, Dawid, Robert, Przemysław"),
    _w("Anna, Katarzyna, Agnieszka, Magdalena, Joanna, Aleksandra, Monika, Natalia, Karolina, Zuzanna, "
       "Julia, Weronika, Kinga, Agata, Marta, Dominika"),
    _w("NOWAK, KOWALSKI, WIŚNIEWSKI, WÓJCIK, KOWALCZYK, KAMIŃSKI, LEWANDOWSKI, ZIELIŃSKI, SZYMAŃSKI, "
       "WOŹNIAK, DĄBROWSKI, KOZŁOWSKI, JANKOWSKI, MAZUR, KWIATKOWSKI, KRAWCZYK, PIOTROWSKI, GRABOWSKI, "
       "NOWAKOWSKI, PAWŁOWSKI, MICHALSKI, KRÓL, WIECZOREK, JABŁOŃSKI, WRÓBEL, ZAWADZKI"),
    feminine="ska")
_CS = Pool(
    _w("Jan, Tomáš, Jakub, Lukáš, Petr, Martin, Ondřej, David, Michal, Adam, Vojtěch, Filip, Josef, "
       "Pavel, Milan, Jiří"),
    _w("Tereza, Kateřina, Lucie, Anna, Eliška, Veronika, Barbora, Adéla, Klára, Markéta, Zuzana, Petra, "
       "Kristýna"),
    _w("NOVÁK, SVOBODA, NOVOTNÝ, DVOŘÁK, ČERNÝ, PROCHÁZKA, KUČERA, VESELÝ, HORÁK, NĚMEC, POKORNÝ, MAREK, "
       "POSPÍŠIL, HÁJEK, JELÍNEK, KRÁL, BENEŠ, FIALA, ZEMAN, KOLÁŘ"),
    women_families=_w("NOVÁKOVÁ, SVOBODOVÁ, NOVOTNÁ, DVOŘÁKOVÁ, ČERNÁ, PROCHÁZKOVÁ, KUČEROVÁ, VESELÁ, "
                      "HORÁKOVÁ, NĚMCOVÁ, POKORNÁ, MARKOVÁ, POSPÍŠILOVÁ, HÁJKOVÁ, JELÍNKOVÁ, KRÁLOVÁ, "
                      "BENEŠOVÁ, FIALOVÁ, ZEMANOVÁ, KOLÁŘOVÁ"))
_SL = Pool(
    _w("Luka, Žiga, Jan, Nejc, Miha, Matic, Rok, Jure, Gašper, Anže, Tilen, Blaž"),
    _w("Nika, Maja, Eva, Ana, Neža, Lara, Špela, Urška, Tina, Petra, Katja"),
    _w("NOVAK, HORVAT, KRAJNC, ZUPANČIČ, KOVAČIČ, POTOČNIK, MLAKAR, KOS, VIDMAR, GOLOB, TURK, BOŽIČ, "
       "KOROŠEC, ZUPAN, KAVČIČ"))
_BG = Pool(
    _w("Georgi, Ivan, Dimitar, Nikolay, Petar, Hristo, Stoyan, Todor, Aleksandar, Martin, Kaloyan, Vasil, "
       "Plamen, Krasimir"),
    _w("Maria, Ivana, Elena, Petya, Gabriela, Stefani, Desislava, Tsvetelina, Nadezhda, Mariya, Kristina, "
       "Ralitsa, Yoana"),
    _w("GEORGIEV, DIMITROV, NIKOLOV, HRISTOV, STOYANOV, TODOROV, ILIEV, VASILEV, ATANASOV, PETKOV, "
       "ANGELOV, KOLEV, YORDANOV, MARKOV, STEFANOV, ZHELEV, RADEV, SLAVOV"),
    feminine="ova")
_HU = Pool(
    _w("Bence, Máté, Dávid, Levente, Dániel, Gergely, Balázs, Ádám, Péter, Zsolt, Gábor, Tamás, Attila"),
    _w("Réka, Anna, Eszter, Zsófia, Dorina, Petra, Nóra, Fanni, Boglárka, Vivien, Kitti, Orsolya"),
    _w("NAGY, KOVÁCS, TÓTH, SZABÓ, HORVÁTH, VARGA, KISS, MOLNÁR, NÉMETH, FARKAS, BALOGH, PAPP, TAKÁCS, "
       "JUHÁSZ, LAKATOS, MÉSZÁROS, OLÁH, RÁCZ, FEKETE"))
_EE = Pool(
    _w("Raul, Kristjan, Karl, Marten, Rasmus, Sander, Kaspar, Indrek, Tanel, Siim, Priit, Andres, Mihkel"),
    _w("Kati, Liis, Kristin, Kadri, Triin, Helen, Grete, Maarja, Anu, Kertu, Mari, Piret"),
    _w("TAMM, SAAR, SEPP, MÄGI, KASK, KUKK, RAND, ILVES, PÄRN, KOPPEL, LEPIK, OJA, KALJU, MÕTTUS, VAHER, "
       "LAANE, KÕIV, LUIK, TOOMING, PUKK"))
_GR = Pool(
    _w("Georgios, Dimitrios, Konstantinos, Nikolaos, Ioannis, Christos, Panagiotis, Vasileios, "
       "Athanasios, Michail, Stavros, Spyros"),
    _w("Maria, Eleni, Aikaterini, Sofia, Anastasia, Despoina, Georgia, Ioanna, Christina, Vasiliki, "
       "Eirini, Theodora"),
    _w("PAPADOPOULOS, GEORGIOU, NIKOLAIDIS, KONSTANTINIDIS, PAPPAS, VLACHOS, ANTONIOU, DIMITRIOU, MAKRIS, "
       "OIKONOMOU, KARAGIANNIS, PAPADAKIS, ALEXIOU, IOANNIDIS"),
    women_families=_w("PAPADOPOULOU, GEORGIOU, NIKOLAIDOU, KONSTANTINIDOU, PAPPA, VLACHOU, ANTONIOU, "
                      "DIMITRIOU, MAKRI, OIKONOMOU, KARAGIANNI, PAPADAKI, ALEXIOU, IOANNIDOU"))
_TR = Pool(
    _w("Emre, Mehmet, Burak, Can, Onur, Kerem, Mert, Serkan, Yusuf, Berk, Ozan, Eren, Emir, Kaan"),
    _w("Elif, Zeynep, Ayşe, Merve, Özge, Bengisu, Cemre, Deniz, İrem, Ebru, Selin, Büşra, Gizem"),
    _w("YILMAZ, KAYA, DEMIR, ŞAHIN, ÇELIK, YILDIZ, AYDIN, ÖZTÜRK, ARSLAN, DOĞAN, KILIÇ, ASLAN, ÇETIN, KOÇ, "
       "KURT, ÖZDEMIR, ŞIMŞEK, POLAT, ERDOĞAN, GÜNEŞ"))
_AZ = Pool(
    _w("Rauf, Elvin, Orkhan, Kamran, Tural, Farid, Ramil, Emil, Nijat, Vusal, Ilkin, Anar"),
    _w("Aysel, Leyla, Gunel, Nigar, Sabina, Aytan, Lala, Narmin, Fidan, Sevinj, Aynur"),
    _w("ALIYEV, HASANOV, MAMMADOV, GULIYEV, HUSEYNOV, ISMAYILOV, ABBASOV, NABIYEV, RZAYEV, KARIMOV, "
       "SULEYMANOV, BABAYEV"),
    feminine="ova")
_KZ = Pool(
    _w("Arman, Nurlan, Yerlan, Daniyar, Aidos, Azamat, Dias, Bauyrzhan, Yerzhan, Timur, Dmitriy, Artur, "
       "Sanzhar, Alisher"),
    _w("Aigerim, Kamila, Dana, Aruzhan, Saule, Madina, Dinara, Assel, Zhanna, Aliya, Yekaterina, Kristina"),
    _w("NURLANOV, ABENOV, ZHAKUPOV, BEKOV, ORAZBAYEV, TOKTAROV, ISMAILOV, SAGINTAYEV, KASYMOV, BAIMUKHANOV, "
       "OMAROV, SADYKOV, YESSENOV, KIM, TEN, PAK"),
    feminine="ova")
_AR = Pool(
    _w("Ahmed, Mohamed, Mahmoud, Omar, Youssef, Karim, Hassan, Amr, Adham, Mostafa, Khaled, Sami, Rachid, "
       "Yacine, Mehdi, Walid, Tarek, Hamza, Sofiane, Rayan, Saif, Rashid, Sultan"),
    _w("Nour, Hana, Mariam, Salma, Yasmine, Dina, Sara, Amina, Lina, Rania, Farah, Leila, Doha, Habiba, "
       "Imane, Meriem, Sarah, Aisha, Noura, Hind"),
    _w("HASSAN, IBRAHIM, MAHMOUD, ABDELRAHMAN, SALEH, FARAG, MOSTAFA, YOUSSEF, KAMAL, NASSER, BENALI, "
       "BOUZID, MANSOURI, HADDAD, AL MANSOORI, AL HASHIMI, AL BLOOSHI, EL SAYED, ABDELAZIZ, CHERIF, "
       "BELKACEM, SAID, FATHY, ZAKI"))
_FA = Pool(
    _w("Reza, Ali, Mohammad, Amir, Hossein, Mehdi, Saeed, Arash, Kourosh, Navid, Pouya, Farzad, Babak, "
       "Kian, Milad"),
    _w("Sara, Maryam, Fatemeh, Zahra, Negin, Soraya, Shirin, Parisa, Yasaman, Mahsa, Niloufar, Sogand, "
       "Elham, Ghazal"),
    _w("AHMADI, HOSSEINI, KARIMI, MOHAMMADI, REZAEI, MOUSAVI, JAFARI, RAHIMI, SADEGHI, HASHEMI, TEHRANI, "
       "NOURI, GHASEMI, SALEHI, AMINI, KAZEMI, MORADI, ABBASI, ZAREI"))
_HE = Pool(
    _w("Yonatan, Noam, Itay, Daniel, Ariel, Omer, Eitan, Guy, Tomer, Amit, Yuval, Nadav, Dmitri, Ilya, "
       "Alon, Ido, Roy, Yoav"),
    _w("Noa, Maya, Shira, Tamar, Yael, Michal, Adi, Liat, Ksenia, Alina, Hila, Dana, Inbar, Noga, Orly, "
       "Rotem"),
    _w("COHEN, LEVI, MIZRAHI, PERETZ, BITON, DAHAN, AVRAHAM, FRIEDMAN, KATZ, AZULAI, SHAPIRO, GOLDBERG, "
       "BEN DAVID, ROSENBERG, OHANA, AMAR, SEGAL, KLEIN, GABAY, ASHKENAZI"))
_NG = Pool(
    _w("Oluwaseun, Chinedu, Emeka, Tunde, Ikenna, Olamide, Adebayo, Chukwuemeka, Babatunde, Femi, Obinna, "
       "Segun, Godwin, Ibrahim, Abdullahi, Daniel, Samuel, Victor, Clement, Kayode, Uche, Musa"),
    _w("Chioma, Ngozi, Funmilayo, Adaeze, Blessing, Grace, Oluwatoyin, Amaka, Kehinde, Folake, Zainab, "
       "Aisha, Deborah, Peace, Ifeoma, Dorcas, Bisola, Nneka, Yetunde, Hauwa"),
    _w("ADEYEMI, OKAFOR, OKONKWO, BELLO, ADEBAYO, EZE, NWOSU, OLAWALE, OGUNLEYE, ABUBAKAR, IBRAHIM, OKEKE, "
       "CHUKWU, ADEWALE, OLADIPO, AKINYEMI, UMAR, OJO, ADENIJI, OSAGIE, EDEH, NWACHUKWU, BALOGUN, "
       "OYELARAN, DANJUMA, OKORO"))
_EAST_AFRICA_MEN = ("Brian, Kevin, Dennis, Collins, Edwin, Samuel, Joseph, Peter, Daniel, Victor, Felix, "
                    "Moses, Emmanuel, Isaac, Ronald, Geoffrey, Patrick, Allan, Ivan, Joshua")
_EAST_AFRICA_WOMEN = ("Faith, Mercy, Joyce, Esther, Grace, Ruth, Lilian, Sharon, Winnie, Brenda, Agnes, "
                      "Juliet, Sylvia, Doreen, Patience, Gloria, Irene, Diana")
_KE = Pool(
    _w(_EAST_AFRICA_MEN), _w(_EAST_AFRICA_WOMEN),
    _w("OTIENO, OCHIENG, ODHIAMBO, KAMAU, MWANGI, KIPROTICH, NJOROGE, KIMANI, WAFULA, MUTUA, OMONDI, KIBET, "
       "KIPLAGAT, ONYANGO, WANJALA, CHERUIYOT, KARIUKI, OWINO, MAINA, GITHINJI"))
_UG = Pool(
    _w(_EAST_AFRICA_MEN), _w(_EAST_AFRICA_WOMEN),
    _w("MUGISHA, SSEMPIJJA, KATO, SSENTONGO, OKELLO, NSUBUGA, LUBEGA, KATEREGGA, MUKASA, NAMUGGA, "
       "WASSWA, KIGGUNDU, TUMUSIIME, BYARUHANGA, OPIO, OCHAN, NANTEZA, KIRABO"))
_ET_MEN = ("Abebe, Dawit, Tesfaye, Yonas, Bereket, Henok, Kebede, Mulugeta, Solomon, Tadesse, Getachew, "
           "Haile, Girma, Alemayehu, Yared, Biruk, Nahom, Tekle, Worku, Mesfin")
_ET = Pool(
    _w(_ET_MEN),
    _w("Almaz, Meseret, Tigist, Hiwot, Selam, Bethlehem, Mekdes, Meron, Rahel, Saba, Tsion, Hanna, Liya, "
       "Feven, Etenesh, Genet"),
    # an Ethiopian's second name is their father's given name
    tuple(n.upper() for n in _w(_ET_MEN)))
_ZA = Pool(
    _w("Johan, Pieter, Willem, Francois, Jacques, Luke, Jason, Ruan, Dylan, Tristan, Werner, Gerhard"),
    _w("Michelle, Johanita, Lize, Chantelle, Megan, Kerry, Nicole, Demi, Amy, Elmarie, Annelie, Carla"),
    _w("VAN DER MERWE, BOTHA, PRETORIUS, NEL, VAN WYK, DU PLESSIS, SMIT, JOUBERT, LE ROUX, VENTER, STEYN, "
       "SMITH, WILLIAMS, COETZEE, FOURIE"))
_ZU = Pool(
    _w("Sipho, Thabo, Sibusiso, Kagiso, Bongani, Andile, Mandla, Themba, Lwazi, Sizwe, Tshepo, Lungile"),
    _w("Zanele, Thandi, Nomvula, Lerato, Nandi, Ayanda, Palesa, Zodwa, Nokuthula, Refilwe, Thandeka"),
    _w("NKOSI, DLAMINI, NDLOVU, MOKOENA, KHUMALO, MTHEMBU, ZULU, SITHOLE, MAHLANGU, MOLOI, SHABALALA"))

POOLS: dict[str, Pool] = {
    "cn": _CN, "tw": _TW, "hk": _HK, "my_cn": _MY_CN, "sg_cn": _SG_CN, "malay": _MALAY, "tamil": _TAMIL,
    "jp": _JP, "kr": _KR, "vn": _VN, "id": _ID, "th": _TH, "in": _IN, "np": _NP, "lk": _LK, "pk": _PK,
    "bd": _BD, "en": _EN, "ie": _IE, "us_asian": _US_ASIAN, "dk": _DK, "se": _SE, "no": _NO, "fi": _FI,
    "nl": _NL, "de": _DE, "fr": _FR, "es": _ES, "pt": _PT, "it": _IT, "ph": _PH, "ru": _RU, "ua": _UA,
    "pl": _PL, "cs": _CS, "sl": _SL, "bg": _BG, "hu": _HU, "ee": _EE, "gr": _GR, "tr": _TR, "az": _AZ,
    "kz": _KZ, "ar": _AR, "fa": _FA, "he": _HE, "ng": _NG, "ke": _KE, "ug": _UG, "et": _ET, "za": _ZA, "zu": _ZU,
}

# Each nation's pools: (pool, weight, born from). A pool with a later "born from" joins the
# mix for players born from that year (the Asian diaspora of North America and Oceania).
NATION_POOLS: dict[str, tuple[tuple[str, float, int], ...]] = {
    "ENG": (("en", 1, 0),), "SCO": (("en", 1, 0),), "WAL": (("en", 1, 0),), "GBR": (("en", 1, 0),),
    "IRL": (("ie", 1, 0),),
    "USA": (("en", 1, 0), ("us_asian", 0.8, 1965)), "CAN": (("en", 1, 0), ("us_asian", 0.6, 1965)),
    "AUS": (("en", 1, 0), ("us_asian", 0.4, 1970)), "NZL": (("en", 1, 0), ("us_asian", 0.4, 1970)),
    "DEN": (("dk", 1, 0),), "SWE": (("se", 1, 0),), "NOR": (("no", 1, 0),), "FIN": (("fi", 1, 0),),
    "NED": (("nl", 1, 0),), "BEL": (("nl", 0.6, 0), ("fr", 0.4, 0)),
    "GER": (("de", 1, 0),), "AUT": (("de", 1, 0),), "SUI": (("de", 0.7, 0), ("fr", 0.3, 0)),
    "FRA": (("fr", 1, 0),), "MRI": (("fr", 0.5, 0), ("in", 0.5, 0)),
    "ESP": (("es", 1, 0),), "MEX": (("es", 1, 0),), "GUA": (("es", 1, 0),), "PER": (("es", 1, 0),),
    "COL": (("es", 1, 0),), "ECU": (("es", 1, 0),), "BOL": (("es", 1, 0),), "BRA": (("pt", 1, 0),),
    "ITA": (("it", 1, 0),), "PHI": (("ph", 1, 0),),
    "RUS": (("ru", 1, 0),), "UKR": (("ua", 1, 0),), "POL": (("pl", 1, 0),), "BUL": (("bg", 1, 0),),
    "CZE": (("cs", 1, 0),), "SLO": (("sl", 1, 0),), "EST": (("ee", 1, 0),), "HUN": (("hu", 1, 0),),
    "GRE": (("gr", 1, 0),), "TUR": (("tr", 1, 0),), "AZE": (("az", 1, 0),), "KAZ": (("kz", 1, 0),),
    "ISR": (("he", 1, 0),), "IRI": (("fa", 1, 0),), "EGY": (("ar", 1, 0),), "ALG": (("ar", 1, 0),),
    "UAE": (("ar", 1, 0),),
    "CHN": (("cn", 1, 0),), "TPE": (("tw", 1, 0),), "HKG": (("hk", 1, 0),),
    "MAS": (("my_cn", 0.55, 0), ("malay", 0.35, 0), ("tamil", 0.10, 0)),
    "SGP": (("sg_cn", 0.75, 0), ("malay", 0.15, 0), ("tamil", 0.10, 0)),
    "INA": (("id", 1, 0),), "THA": (("th", 1, 0),), "KOR": (("kr", 1, 0),), "JPN": (("jp", 1, 0),),
    "VIE": (("vn", 1, 0),), "IND": (("in", 1, 0),), "SRI": (("lk", 1, 0),), "PAK": (("pk", 1, 0),),
    "BAN": (("bd", 1, 0),), "NEP": (("np", 1, 0),),
    "NGR": (("ng", 1, 0),), "KEN": (("ke", 1, 0),), "UGA": (("ug", 1, 0),), "ETH": (("et", 1, 0),),
    "RSA": (("za", 0.6, 0), ("zu", 0.3, 0), ("in", 0.1, 0)),
}

# Champions of the years before the shipped data (2018 on): invented people never bear these
# names either. Written as the BWF writes them; any order, case or accent matches.
CHAMPIONS = (
    "LIN Dan", "LEE Chong Wei", "Taufik HIDAYAT", "Peter GADE", "Poul-Erik HØYER LARSEN", "Morten FROST",
    "Rudy HARTONO", "LIEM Swie King", "Susi SUSANTI", "Alan BUDIKUSUMA", "Erland KOPS", "Finn KOBBERØ",
    "Judy DEVLIN", "Judy HASHMAN", "Frank DEVLIN", "Eddy CHOONG", "WONG Peng Soon", "David FREEMAN",
    "Prakash PADUKONE", "Gillian GILKS", "Gao LING", "GAO Ling", "ZHANG Ning", "XIE Xingfang", "LI Lingwei",
    "HAN Aiping", "YANG Yang", "ZHAO Jianhua", "PARK Joo Bong", "KIM Moon Soo", "GIL Young Ah",
    "RA Kyung Min", "KIM Dong Moon", "Icuk SUGIARTO", "Liliyana NATSIR", "Tontowi AHMAD",
    "Hendra SETIAWAN", "Mohammad AHSAN", "Markis KIDO", "Tony GUNAWAN", "Ricky SUBAGJA", "Rexy MAINAKY",
    "CAI Yun", "FU Haifeng", "ZHANG Nan", "ZHAO Yunlei", "WANG Yihan", "LI Xuerui", "WANG Shixian",
    "CHEN Long", "CHEN Jin", "BAO Chunlai", "XIA Xuanze", "DONG Jiong", "SUN Jun", "JI Xinpeng",
    "Camilla MARTIN", "Tine BAUN", "Tine RASMUSSEN", "Mette SCHJOLDAGER", "Lene KÖPPEN", "Ib FREDERIKSEN",
    "Svend PRI", "Flemming DELFS", "Tony AHM", "Ethel THOMSON", "Meriel LUCAS", "Margaret TRAGETT",
    "George Alan THOMAS", "Ralph NICHOLS", "Betty UBER", "Marjorie BARRETT", "Diana HOPKINS",
    "Wong Choong Hann", "Roslin HASHIM", "Hafiz HASHIM", "Rashid SIDEK", "Misbun SIDEK", "Jalani SIDEK",
    "Razif SIDEK", "Foo Kok Keong", "Ong Ewe Hock", "Saina NEHWAL", "Pullela GOPICHAND", "Syed MODI",
    "Carolina MARÍN", "Tai Tzu Ying", "Ratchanok INTANON", "Kento MOMOTA", "Viktor AXELSEN",
)


def deny_keys(name: str) -> set[str]:
    """The keys a name is denied by: its family name folded, and the letters of its given names
    folded and sorted, so that any order, case, accent, spacing or hyphenation of the same name
    matches ("SHI Yu Qi", "Yuqi SHI", "Shi Yu-Qi"). The family name is the words in capitals
    where the name marks it ("LEONG Jun Hao"); otherwise the first or the last word may be it
    (match files write "Jun Hao Leong"), and both keys are given."""
    words = [w for w in re.split(r"[\s\-.,']+", name) if w]
    caps = [w for w in words if w.isupper() and len(w) > 1]
    if caps and len(caps) < len(words):
        splits = [(caps, [w for w in words if w not in caps])]
    else:
        splits = [(words[:1], words[1:]), (words[-1:], words[:-1])]
    return {fold("".join(family)) + "|" + "".join(sorted(c for c in fold("".join(given)) if c.isalpha()))
            for family, given in splits}


def is_denied(name: str) -> bool:
    return not deny_keys(name).isdisjoint(denied())


@lru_cache(maxsize=1)
def denied() -> frozenset[str]:
    """The keys of every real player's name (the shipped data, built by `python -m
    svc.world.naming`) and of CHAMPIONS."""
    keys = set(DENIED_FILE.read_text(encoding="utf-8").splitlines())
    for n in CHAMPIONS:
        keys.update(deny_keys(n))
    return frozenset(keys)


def real_names(root: Path = REAL_DATA) -> set[str]:
    """Every player's name in the BWF data under `root` (plain or gzip-compressed CSV)."""
    out: set[str] = set()
    for path in sorted(root.glob("bwf-world-ranking/*/*.csv*")) + sorted(root.glob("bwf-world-tour/*.csv*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8", newline="") as fh:
            reader = csv.reader(fh)
            header = next(reader, [])
            cols = [i for i, h in enumerate(header)
                    if h in ("name", "name_one", "name_two", "team_one_players", "team_two_players")
                    or (h.startswith("team_") and (h.endswith("_player_one") or h.endswith("_player_two")))]
            for row in reader:
                out.update(row[i] for i in cols if i < len(row) and row[i].strip())
    return out


def compose(rng: random.Random, nation: str, gender: str, born: int, extra_given: bool = False) -> str:
    """A name by the conventions of `nation` for a person born in `born`."""
    choices = [(p, w) for p, w, since in NATION_POOLS[nation] if born >= since]
    pool = POOLS[rng.choices([p for p, _w in choices], [w for _p, w in choices])[0]]
    givens = pool.men if gender == "M" else pool.women
    if pool.syllables:
        # two syllables mostly (Korean names always); the pools give thousands of given names,
        # so a second given name is never needed to keep names apart
        count = 2 if pool is _KR or rng.random() < 0.75 else 1
        given = " ".join(rng.sample(givens, count))
    else:
        count = 2 if extra_given or rng.random() < pool.two_given else 1
        given = " ".join(rng.sample(givens, count))
    if pool.middle is not None:
        given = rng.choice(pool.middle[0 if gender == "M" else 1]) + " " + given
    family = _family(rng, pool, gender)
    if pool.double_family and rng.random() < pool.double_family:
        second = _family(rng, pool, gender)
        if second != family:
            family = f"{family} {second}"
    return f"{family} {given}" if pool.family_first else f"{given} {family}"


def _family(rng: random.Random, pool: Pool, gender: str) -> str:
    if gender == "W" and pool.women_families is not None:
        return rng.choice(pool.women_families)
    family = rng.choice(pool.families)
    if gender == "W" and pool.feminine == "ova":
        if family.endswith("SKY"):
            return family[:-3] + "SKAYA"
        if family.endswith(("OV", "EV", "YOV", "IN")):
            return family + "A"
    if gender == "W" and pool.feminine == "ska" and family.endswith(("SKI", "CKI", "DZKI")):
        return family[:-1] + "A"
    return family


class Namer:
    """Names for one world: never a real player's name, and unique within a nation among the
    people active at the same time (each name keeps the years it is in use)."""

    TRIES = 40  # after half of them a second given name widens the choice a hundredfold

    def __init__(self) -> None:
        self._in_use: dict[tuple[str, str], list[tuple[int, int]]] = {}

    def player(self, rng: random.Random, nation: str, gender: str, born: int, first: int, last: int) -> str:
        """A name for a player of `nation` active from `first` to `last` (years)."""
        name = ""
        for attempt in range(self.TRIES):
            name = compose(rng, nation, gender, born, extra_given=attempt >= self.TRIES // 2)
            if is_denied(name):
                continue
            spans = self._in_use.get((nation, fold(name)))
            if spans and any(a <= last and first <= b for a, b in spans):
                continue
            break
        self._in_use.setdefault((nation, fold(name)), []).append((first, last))
        return name

    def other(self, rng: random.Random, nation: str, gender: str, born: int) -> str:
        """A name for someone who is not a player (a coach): never a real player's name."""
        name = compose(rng, nation, gender, born)
        while is_denied(name):
            name = compose(rng, nation, gender, born)
        return name


def write_denied() -> int:
    """Writes the keys of the shipped data's names to DENIED_FILE (`python -m svc denied-names`,
    run after the shipped data changes); returns how many."""
    keys = sorted({k for n in real_names() for k in deny_keys(n)})
    DENIED_FILE.write_text("\n".join(keys) + "\n", encoding="utf-8")
    return len(keys)
